package k8s_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/queue"
)

// checks are the rules every build must pass.
var checks = []check{
	{"containers are hardened and sized", checkContainers},
	{"api probes and settings", checkAPI},
	{"http probes hit declared ports", checkProbePorts},
	{"env references resolve", checkEnvRefs},
	{"volumes resolve and jobs are shared", checkVolumes},
	{"worker autoscaling follows the queue", checkAutoscaling},
	{"services select pods", checkServices},
	{"disruption budgets", checkBudgets},
	{"redis persists", checkRedis},
	{"ingress routes to the api", checkIngress},
	{"namespaces", checkNamespaces},
	{"service accounts", checkAccounts},
}

// TestBuildsFitTogether runs every check on every build.
func TestBuildsFitTogether(t *testing.T) {
	for _, b := range builds {
		t.Run(b.Dir, func(t *testing.T) {
			inv := mustInventory(t, b.Dir, b.Namespace)
			wantAutoscaler(t, inv, b.Autoscaler)
			for _, c := range checks {
				t.Run(c.Name, func(t *testing.T) {
					for _, p := range c.Run(inv) {
						t.Error(p)
					}
				})
			}
		})
	}
}

// mustInventory renders dir and indexes it, failing the test on error.
func mustInventory(t *testing.T, dir, namespace string) *inventory {
	t.Helper()
	objs, err := render(dir)
	if err != nil {
		t.Fatal(err)
	}
	return newInventory(dir, namespace, objs)
}

// wantAutoscaler checks that the workers are scaled by exactly the
// expected mechanism: KEDA and a plain HPA on one Deployment fight.
func wantAutoscaler(t *testing.T, inv *inventory, kind string) {
	t.Helper()
	switch kind {
	case "ScaledObject":
		if len(inv.Scaled) != 1 || len(inv.HPAs) != 0 {
			t.Errorf("%s: want one ScaledObject and no HPA, got %d and %d", inv.Dir, len(inv.Scaled), len(inv.HPAs))
		}
	case "HorizontalPodAutoscaler":
		if len(inv.HPAs) != 1 || len(inv.Scaled) != 0 || len(inv.TriggerAuths) != 0 {
			t.Errorf("%s: want one HPA and no KEDA object, got %d HPA, %d ScaledObject, %d TriggerAuthentication",
				inv.Dir, len(inv.HPAs), len(inv.Scaled), len(inv.TriggerAuths))
		}
	}
}

// checkContainers: every container asks for CPU and memory, has a memory
// limit not below its request, and runs non-root on a read-only root file
// system without privilege escalation or capabilities, under the runtime's
// seccomp profile (the restricted Pod Security Standard).
func checkContainers(inv *inventory) []string {
	var ps []string
	for _, w := range inv.workloads() {
		pod := w.Pod.Spec.SecurityContext
		if pod == nil {
			pod = &corev1.PodSecurityContext{}
		}
		for _, c := range containers(w.Pod) {
			where := fmt.Sprintf("%s %s container %s", w.Kind, w.Name, c.Name)
			req, lim := c.Resources.Requests, c.Resources.Limits
			for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if q, ok := req[r]; !ok || q.IsZero() {
					ps = append(ps, fmt.Sprintf("%s: no %s request", where, r))
				}
				if l, ok := lim[r]; ok && l.Cmp(req[r]) < 0 {
					ps = append(ps, fmt.Sprintf("%s: %s limit %s below request %s", where, r, l.String(), ptr(req[r]).String()))
				}
			}
			if q, ok := lim[corev1.ResourceMemory]; !ok || q.IsZero() {
				ps = append(ps, where+": no memory limit")
			}
			sc := c.SecurityContext
			if sc == nil {
				ps = append(ps, where+": no securityContext")
				continue
			}
			if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
				ps = append(ps, where+": readOnlyRootFilesystem is not true")
			}
			if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
				ps = append(ps, where+": allowPrivilegeEscalation is not false")
			}
			if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
				ps = append(ps, where+": capabilities must drop ALL and add none")
			}
			if !boolOr(sc.RunAsNonRoot, pod.RunAsNonRoot) {
				ps = append(ps, where+": runAsNonRoot is not true")
			}
			if uid := int64Or(sc.RunAsUser, pod.RunAsUser); uid == nil || *uid == 0 {
				ps = append(ps, where+": no non-zero runAsUser")
			}
			seccomp := sc.SeccompProfile
			if seccomp == nil {
				seccomp = pod.SeccompProfile
			}
			if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault {
				ps = append(ps, where+": seccompProfile is not RuntimeDefault")
			}
		}
	}
	return ps
}

func ptr[T any](v T) *T { return &v }

// boolOr is the container setting if set, else the pod's, false if neither.
func boolOr(c, p *bool) bool {
	if c != nil {
		return *c
	}
	return p != nil && *p
}

func int64Or(c, p *int64) *int64 {
	if c != nil {
		return c
	}
	return p
}

// checkAPI: the api container's readiness probe is /readyz (Redis
// reachable) and its liveness and startup probes /healthz, all on the port
// the API listens on (PORT); it requires API keys and gets REDIS_URL. A
// liveness probe on /readyz would restart every api pod when Redis blinks.
func checkAPI(inv *inventory) []string {
	d := inv.Deployments[apiName]
	if d == nil {
		return []string{"no Deployment " + apiName}
	}
	var c *corev1.Container
	for i := range d.Spec.Template.Spec.Containers {
		if d.Spec.Template.Spec.Containers[i].Name == apiContainer {
			c = &d.Spec.Template.Spec.Containers[i]
		}
	}
	if c == nil {
		return []string{fmt.Sprintf("Deployment %s has no container %s", apiName, apiContainer)}
	}
	var ps []string
	env := inv.containerEnv(c)
	listen, err := strconv.Atoi(env["PORT"])
	if err != nil {
		ps = append(ps, fmt.Sprintf("api container: PORT %q is not a number", env["PORT"]))
	}
	probes := []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{
		{"readinessProbe", c.ReadinessProbe, "/readyz"},
		{"livenessProbe", c.LivenessProbe, "/healthz"},
		{"startupProbe", c.StartupProbe, "/healthz"},
	}
	for _, p := range probes {
		if p.probe == nil || p.probe.HTTPGet == nil {
			ps = append(ps, fmt.Sprintf("api container: no httpGet %s", p.name))
			continue
		}
		if p.probe.HTTPGet.Path != p.path {
			ps = append(ps, fmt.Sprintf("api container: %s path %q, want %q", p.name, p.probe.HTTPGet.Path, p.path))
		}
		port, ok := portOf(c, p.probe.HTTPGet.Port)
		if !ok || int(port) != listen {
			ps = append(ps, fmt.Sprintf("api container: %s port %s is not the listening port PORT=%s",
				p.name, p.probe.HTTPGet.Port.String(), env["PORT"]))
		}
	}
	if env["AUTH_MODE"] != "keys" {
		ps = append(ps, fmt.Sprintf("api container: AUTH_MODE=%q, want keys", env["AUTH_MODE"]))
	}
	if env["HOST"] != "0.0.0.0" {
		ps = append(ps, fmt.Sprintf("api container: HOST=%q, want 0.0.0.0 so that probes and the Service reach it", env["HOST"]))
	}
	if env["REDIS_URL"] == "" {
		ps = append(ps, "api container: no REDIS_URL")
	}
	return ps
}

// checkProbePorts: every httpGet probe names a port the container
// declares (a probe on an undeclared port name is refused by the API
// server; on an undeclared number it silently probes nothing).
func checkProbePorts(inv *inventory) []string {
	var ps []string
	for _, w := range inv.workloads() {
		for _, c := range containers(w.Pod) {
			for name, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe} {
				if p == nil || p.HTTPGet == nil {
					continue
				}
				if _, ok := portOf(c, p.HTTPGet.Port); !ok {
					ps = append(ps, fmt.Sprintf("%s %s container %s: %s probe port %s is not declared",
						w.Kind, w.Name, c.Name, name, p.HTTPGet.Port.String()))
				}
			}
		}
	}
	return ps
}

// checkEnvRefs: every ConfigMap and Secret that env, envFrom or a KEDA
// TriggerAuthentication names exists in the build, with the key named
// (unless marked optional); a missing one keeps the pod from starting.
// The gusset processes also need REDIS_URL.
func checkEnvRefs(inv *inventory) []string {
	var ps []string
	hasCM := func(name, key string) bool {
		cm := inv.ConfigMaps[name]
		if cm == nil {
			return false
		}
		_, ok := cm.Data[key]
		return ok || key == ""
	}
	hasSecret := func(name, key string) bool {
		d := secretData(inv.Secrets[name])
		if d == nil {
			return false
		}
		_, ok := d[key]
		return ok || key == ""
	}
	optional := func(b *bool) bool { return b != nil && *b }
	for _, w := range inv.workloads() {
		for _, c := range containers(w.Pod) {
			where := fmt.Sprintf("%s %s container %s", w.Kind, w.Name, c.Name)
			for _, ef := range c.EnvFrom {
				if r := ef.ConfigMapRef; r != nil && !optional(r.Optional) && !hasCM(r.Name, "") {
					ps = append(ps, fmt.Sprintf("%s: envFrom ConfigMap %s is not in the build", where, r.Name))
				}
				if r := ef.SecretRef; r != nil && !optional(r.Optional) && !hasSecret(r.Name, "") {
					ps = append(ps, fmt.Sprintf("%s: envFrom Secret %s is not in the build", where, r.Name))
				}
			}
			for _, e := range c.Env {
				if e.ValueFrom == nil {
					continue
				}
				if r := e.ValueFrom.ConfigMapKeyRef; r != nil && !optional(r.Optional) && !hasCM(r.Name, r.Key) {
					ps = append(ps, fmt.Sprintf("%s: env %s: ConfigMap %s key %s is not in the build", where, e.Name, r.Name, r.Key))
				}
				if r := e.ValueFrom.SecretKeyRef; r != nil && !optional(r.Optional) && !hasSecret(r.Name, r.Key) {
					ps = append(ps, fmt.Sprintf("%s: env %s: Secret %s key %s is not in the build", where, e.Name, r.Name, r.Key))
				}
				if r := e.ValueFrom.ResourceFieldRef; r != nil && r.ContainerName != "" && r.ContainerName != c.Name {
					ps = append(ps, fmt.Sprintf("%s: env %s reads the resources of container %q", where, e.Name, r.ContainerName))
				}
			}
			if len(c.Command) > 0 && strings.HasPrefix(filepath.Base(c.Command[0]), "gusset-") && inv.containerEnv(c)["REDIS_URL"] == "" {
				ps = append(ps, where+": no REDIS_URL")
			}
		}
	}
	for _, name := range sortedKeys(inv.TriggerAuths) {
		for _, r := range inv.TriggerAuths[name].Spec.SecretTargetRef {
			if !hasSecret(r.Name, r.Key) {
				ps = append(ps, fmt.Sprintf("TriggerAuthentication %s: Secret %s key %s is not in the build", name, r.Name, r.Key))
			}
		}
		for _, r := range inv.TriggerAuths[name].Spec.ConfigMapTargetRef {
			if !hasCM(r.Name, r.Key) {
				ps = append(ps, fmt.Sprintf("TriggerAuthentication %s: ConfigMap %s key %s is not in the build", name, r.Name, r.Key))
			}
		}
	}
	return ps
}

// checkVolumes: every mount names a volume of its pod, every claim a PVC of
// the build, and the volume under JOBS_DIR of the api is a ReadWriteMany
// claim: all api replicas read and write the same job files.
func checkVolumes(inv *inventory) []string {
	var ps []string
	for _, w := range inv.workloads() {
		vols := map[string]*corev1.Volume{}
		for i := range w.Pod.Spec.Volumes {
			v := &w.Pod.Spec.Volumes[i]
			vols[v.Name] = v
			if v.PersistentVolumeClaim != nil && inv.Claims[v.PersistentVolumeClaim.ClaimName] == nil {
				ps = append(ps, fmt.Sprintf("%s %s: volume %s claims %s, which is not in the build",
					w.Kind, w.Name, v.Name, v.PersistentVolumeClaim.ClaimName))
			}
		}
		templates := map[string]bool{}
		for _, c := range w.Claims {
			templates[c.Name] = true
		}
		for _, c := range containers(w.Pod) {
			for _, m := range c.VolumeMounts {
				if vols[m.Name] == nil && !templates[m.Name] {
					ps = append(ps, fmt.Sprintf("%s %s container %s: mount %s names no volume", w.Kind, w.Name, c.Name, m.Name))
				}
			}
		}
	}
	jobs := inv.Claims[jobsClaimName]
	if jobs == nil {
		return append(ps, "no PersistentVolumeClaim "+jobsClaimName)
	}
	if !slices.Contains(jobs.Spec.AccessModes, corev1.ReadWriteMany) {
		ps = append(ps, fmt.Sprintf("PersistentVolumeClaim %s: accessModes %v, want ReadWriteMany", jobsClaimName, jobs.Spec.AccessModes))
	}
	if d := inv.Deployments[apiName]; d != nil {
		for _, c := range d.Spec.Template.Spec.Containers {
			dir := inv.containerEnv(&c)["JOBS_DIR"]
			if dir == "" {
				ps = append(ps, fmt.Sprintf("%s container %s: no JOBS_DIR", apiName, c.Name))
				continue
			}
			var claim string
			for _, m := range c.VolumeMounts {
				if filepath.Clean(m.MountPath) == filepath.Clean(dir) {
					for _, v := range d.Spec.Template.Spec.Volumes {
						if v.Name == m.Name && v.PersistentVolumeClaim != nil {
							claim = v.PersistentVolumeClaim.ClaimName
						}
					}
				}
			}
			if claim != jobsClaimName {
				ps = append(ps, fmt.Sprintf("%s container %s: JOBS_DIR %s is not a mount of PersistentVolumeClaim %s", apiName, c.Name, dir, jobsClaimName))
			}
		}
	}
	return ps
}

// identRE finds identifiers in a KEDA scalingModifiers formula.
var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\s*\(?`)

// checkAutoscaling: the autoscaler targets the worker Deployment, which
// leaves its replica count to it; KEDA's redis triggers read the lists of
// the queue the workers consume (queue.QueueAnalysis), one of them the
// pending list, through a TriggerAuthentication of the build, and a
// scalingModifiers formula names only triggers that exist. An HPA on CPU
// needs CPU requests to compute utilisation.
func checkAutoscaling(inv *inventory) []string {
	var ps []string
	targets := map[string]int{}
	prefix := "asynq:{" + queue.QueueAnalysis + "}:"
	for _, name := range sortedKeys(inv.Scaled) {
		so := inv.Scaled[name]
		where := "ScaledObject " + name
		ref := so.Spec.ScaleTargetRef
		if ref == nil || (ref.Kind != "" && ref.Kind != "Deployment") || inv.Deployments[ref.Name] == nil {
			ps = append(ps, fmt.Sprintf("%s: scaleTargetRef %+v is not a Deployment of the build", where, ref))
		} else {
			targets[ref.Name]++
			if ref.Name != workerName {
				ps = append(ps, fmt.Sprintf("%s scales %s, want %s", where, ref.Name, workerName))
			}
		}
		names := map[string]bool{}
		pending := false
		for i, tr := range so.Spec.Triggers {
			names[tr.Name] = tr.Name != ""
			if tr.Type != "redis" {
				continue
			}
			list := tr.Metadata["listName"]
			if !strings.HasPrefix(list, prefix) {
				ps = append(ps, fmt.Sprintf("%s trigger %d: listName %q is not a list of the asynq queue %q", where, i, list, queue.QueueAnalysis))
			}
			if list == prefix+"pending" {
				pending = true
			}
			if n, err := strconv.Atoi(tr.Metadata["listLength"]); err != nil || n < 1 {
				ps = append(ps, fmt.Sprintf("%s trigger %d: listLength %q is not a positive integer", where, i, tr.Metadata["listLength"]))
			}
			if tr.AuthenticationRef == nil || inv.TriggerAuths[tr.AuthenticationRef.Name] == nil {
				ps = append(ps, fmt.Sprintf("%s trigger %d: authenticationRef names no TriggerAuthentication of the build", where, i))
			}
		}
		if !pending {
			ps = append(ps, fmt.Sprintf("%s: no redis trigger on %spending", where, prefix))
		}
		if a := so.Spec.Advanced; a != nil && a.ScalingModifiers.Formula != "" {
			for _, id := range identRE.FindAllString(a.ScalingModifiers.Formula, -1) {
				if strings.HasSuffix(id, "(") { // a function of the expression language
					continue
				}
				if id = strings.TrimSpace(id); !names[id] {
					ps = append(ps, fmt.Sprintf("%s: formula names %q, which is no trigger name", where, id))
				}
			}
			if a.ScalingModifiers.Target == "" {
				ps = append(ps, where+": a formula needs a target")
			}
		}
		if so.Spec.MinReplicaCount == nil || so.Spec.MaxReplicaCount == nil || *so.Spec.MinReplicaCount < 1 ||
			*so.Spec.MaxReplicaCount < *so.Spec.MinReplicaCount {
			ps = append(ps, where+": want 1 <= minReplicaCount <= maxReplicaCount")
		}
	}
	for _, name := range sortedKeys(inv.HPAs) {
		h := inv.HPAs[name]
		ref := h.Spec.ScaleTargetRef
		d := inv.Deployments[ref.Name]
		if ref.Kind != "Deployment" || d == nil {
			ps = append(ps, fmt.Sprintf("HorizontalPodAutoscaler %s: scaleTargetRef %s %s is not a Deployment of the build", name, ref.Kind, ref.Name))
			continue
		}
		targets[ref.Name]++
		for _, m := range h.Spec.Metrics {
			if m.Resource == nil || m.Resource.Name != corev1.ResourceCPU {
				continue
			}
			for _, c := range d.Spec.Template.Spec.Containers {
				if _, ok := c.Resources.Requests[corev1.ResourceCPU]; !ok {
					ps = append(ps, fmt.Sprintf("HorizontalPodAutoscaler %s: container %s has no CPU request to measure against", name, c.Name))
				}
			}
		}
	}
	for _, name := range sortedKeys(targets) {
		if targets[name] > 1 {
			ps = append(ps, fmt.Sprintf("Deployment %s has %d autoscalers", name, targets[name]))
		}
		if inv.Deployments[name].Spec.Replicas != nil {
			ps = append(ps, fmt.Sprintf("Deployment %s sets replicas although an autoscaler owns it: each apply would reset it", name))
		}
	}
	if targets[workerName] == 0 {
		ps = append(ps, "no autoscaler for "+workerName)
	}
	return ps
}

// checkServices: every Service selects the pods of a workload of the build
// (a selector matching nothing leaves it without endpoints) and its target
// ports are ports those pods declare; a headless Service serves the
// StatefulSet that names it.
func checkServices(inv *inventory) []string {
	var ps []string
	for _, name := range sortedKeys(inv.Services) {
		s := inv.Services[name]
		var match *workload
		for _, w := range inv.workloads() {
			if selects(&metav1.LabelSelector{MatchLabels: s.Spec.Selector}, w.Pod.Labels) {
				match = &w
				break
			}
		}
		if match == nil {
			ps = append(ps, fmt.Sprintf("Service %s: selector %v matches the pods of no workload", name, s.Spec.Selector))
			continue
		}
		for _, sp := range s.Spec.Ports {
			target := sp.TargetPort
			if target.Type == intstr.Int && target.IntVal == 0 {
				target = intstr.FromInt32(sp.Port)
			}
			found := false
			for _, c := range match.Pod.Spec.Containers {
				if _, ok := portOf(&c, target); ok {
					found = true
				}
			}
			if !found {
				ps = append(ps, fmt.Sprintf("Service %s port %s: targetPort %s is not declared by %s %s", name, sp.Name, target.String(), match.Kind, match.Name))
			}
		}
	}
	for _, name := range sortedKeys(inv.StatefulSets) {
		sn := inv.StatefulSets[name].Spec.ServiceName
		if s := inv.Services[sn]; s == nil || s.Spec.ClusterIP != corev1.ClusterIPNone {
			ps = append(ps, fmt.Sprintf("StatefulSet %s: serviceName %q is not a headless Service of the build", name, sn))
		}
	}
	for _, w := range inv.workloads() {
		if !selects(w.Selector, w.Pod.Labels) {
			ps = append(ps, fmt.Sprintf("%s %s: selector does not match its own pod labels", w.Kind, w.Name))
		}
	}
	return ps
}

// checkBudgets: every PodDisruptionBudget covers some workload, the api is
// covered, and no budget forbids every eviction (minAvailable at or above
// the replica count would block node drains forever).
func checkBudgets(inv *inventory) []string {
	var ps []string
	apiCovered := false
	for _, name := range sortedKeys(inv.Budgets) {
		b := inv.Budgets[name]
		matched := false
		for _, w := range inv.workloads() {
			if !selects(b.Spec.Selector, w.Pod.Labels) {
				continue
			}
			matched = true
			if w.Kind == "Deployment" && w.Name == apiName {
				apiCovered = true
			}
			if b.Spec.MinAvailable != nil && b.Spec.MinAvailable.Type == intstr.Int {
				replicas := int32(1)
				if w.Replicas != nil {
					replicas = *w.Replicas
				}
				if b.Spec.MinAvailable.IntVal >= replicas {
					ps = append(ps, fmt.Sprintf("PodDisruptionBudget %s: minAvailable %d with %d replicas of %s blocks every eviction",
						name, b.Spec.MinAvailable.IntVal, replicas, w.Name))
				}
			}
		}
		if !matched {
			ps = append(ps, fmt.Sprintf("PodDisruptionBudget %s selects the pods of no workload", name))
		}
	}
	if !apiCovered {
		ps = append(ps, "no PodDisruptionBudget covers the pods of "+apiName)
	}
	return ps
}

// checkRedis: the in-cluster Redis (when the build has one) keeps an
// append-only file synced every second on a persistent claim, since the
// queue, job metadata and API keys live there.
func checkRedis(inv *inventory) []string {
	s := inv.StatefulSets[redisName]
	if s == nil {
		return nil
	}
	var ps []string
	for _, c := range s.Spec.Template.Spec.Containers {
		args := " " + strings.Join(append(slices.Clone(c.Command), c.Args...), " ") + " "
		for _, want := range []string{"--appendonly yes", "--appendfsync everysec"} {
			if !strings.Contains(args, " "+want+" ") {
				ps = append(ps, fmt.Sprintf("StatefulSet %s container %s: arguments lack %q", redisName, c.Name, want))
			}
		}
		data := false
		for _, m := range c.VolumeMounts {
			for _, vct := range s.Spec.VolumeClaimTemplates {
				if m.Name == vct.Name && m.MountPath == "/data" {
					data = true
				}
			}
		}
		if !data {
			ps = append(ps, fmt.Sprintf("StatefulSet %s container %s: /data is not on a volumeClaimTemplate", redisName, c.Name))
		}
	}
	return ps
}

// nginxSize parses an nginx size ("64m", "1g", "512k", "1024").
func nginxSize(s string) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1<<10, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1<<20, strings.TrimSuffix(s, "m")
	case strings.HasSuffix(s, "g"):
		mult, s = 1<<30, strings.TrimSuffix(s, "g")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

// checkIngress: each Ingress routes to a Service and port of the build,
// lets bodies as large as the API accepts through (httpapi.DefaultBodyLimit),
// and every host it serves is in the api's ALLOWED_HOSTS, without which
// the API answers 403 to requests through it.
func checkIngress(inv *inventory) []string {
	var ps []string
	var allowed []string
	if d := inv.Deployments[apiName]; d != nil && len(d.Spec.Template.Spec.Containers) > 0 {
		for _, h := range strings.Split(inv.containerEnv(&d.Spec.Template.Spec.Containers[0])["ALLOWED_HOSTS"], ",") {
			allowed = append(allowed, strings.ToLower(strings.TrimSpace(h)))
		}
	}
	for _, name := range sortedKeys(inv.Ingresses) {
		ing := inv.Ingresses[name]
		where := "Ingress " + name
		size, err := nginxSize(ing.Annotations["nginx.ingress.kubernetes.io/proxy-body-size"])
		if err != nil || size < httpapi.DefaultBodyLimit {
			ps = append(ps, fmt.Sprintf("%s: proxy-body-size %q is below the API's body limit of %d bytes",
				where, ing.Annotations["nginx.ingress.kubernetes.io/proxy-body-size"], httpapi.DefaultBodyLimit))
		}
		if len(ing.Spec.Rules) == 0 {
			ps = append(ps, where+": no rules")
		}
		for _, r := range ing.Spec.Rules {
			if r.Host == "" || !(slices.Contains(allowed, strings.ToLower(r.Host)) || slices.Contains(allowed, "*")) {
				ps = append(ps, fmt.Sprintf("%s: host %q is not in ALLOWED_HOSTS %v of %s", where, r.Host, allowed, apiName))
			}
			if r.HTTP == nil {
				continue
			}
			for _, p := range r.HTTP.Paths {
				b := p.Backend.Service
				if b == nil {
					ps = append(ps, fmt.Sprintf("%s path %s: no Service backend", where, p.Path))
					continue
				}
				s := inv.Services[b.Name]
				if s == nil {
					ps = append(ps, fmt.Sprintf("%s path %s: Service %s is not in the build", where, p.Path, b.Name))
					continue
				}
				if !slices.ContainsFunc(s.Spec.Ports, func(sp corev1.ServicePort) bool {
					return (b.Port.Name != "" && sp.Name == b.Port.Name) || (b.Port.Name == "" && sp.Port == b.Port.Number)
				}) {
					ps = append(ps, fmt.Sprintf("%s path %s: Service %s has no port %+v", where, p.Path, b.Name, b.Port))
				}
			}
		}
	}
	return ps
}

// checkNamespaces: in an overlay every namespaced object lands in its
// namespace, which the overlay creates; the base sets none, leaving it to
// the overlay or kubectl -n.
func checkNamespaces(inv *inventory) []string {
	var ps []string
	if inv.Namespace != "" && inv.Namespaces[inv.Namespace] == nil {
		ps = append(ps, fmt.Sprintf("%s: no Namespace object %s", inv.Dir, inv.Namespace))
	}
	if inv.Namespace == "" && len(inv.Namespaces) > 0 {
		ps = append(ps, fmt.Sprintf("%s: the base creates a Namespace", inv.Dir))
	}
	for _, o := range inv.Objects {
		if o.Kind == "Namespace" {
			continue
		}
		if o.Namespace != inv.Namespace {
			ps = append(ps, fmt.Sprintf("%s %s: namespace %q, want %q", o.Kind, o.Name, o.Namespace, inv.Namespace))
		}
	}
	return ps
}

// checkAccounts: pods run under a ServiceAccount of the build and mount
// no API token (nothing here talks to the Kubernetes API).
func checkAccounts(inv *inventory) []string {
	var ps []string
	for _, w := range inv.workloads() {
		sa := w.Pod.Spec.ServiceAccountName
		if sa != "" && inv.Accounts[sa] == nil {
			ps = append(ps, fmt.Sprintf("%s %s: ServiceAccount %s is not in the build", w.Kind, w.Name, sa))
		}
		mount := w.Pod.Spec.AutomountServiceAccountToken
		if mount == nil && inv.Accounts[sa] != nil {
			mount = inv.Accounts[sa].AutomountServiceAccountToken
		}
		if mount == nil || *mount {
			ps = append(ps, fmt.Sprintf("%s %s: mounts a service account token", w.Kind, w.Name))
		}
	}
	return ps
}
