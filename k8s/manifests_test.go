// Package k8s_test checks the Kubernetes manifests of k8s/: that every
// kustomization renders as `kubectl apply -k` would render it, that every
// object decodes strictly into its Kubernetes API type (unknown, misspelt
// or duplicate fields fail, as the API server's strict field validation
// would refuse them), and that the objects fit together: references
// resolve, probes hit the right paths and ports, the pods are hardened and
// the autoscaler watches the queue that the workers consume.
//
// The directory holds no Go code but this test: the Kubernetes and
// kustomize modules it imports are linked into no service binary.
package k8s_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	kusttypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/queue"
)

// builds are the kustomizations an operator applies. Namespace is the
// namespace every namespaced object must land in ("" for none: the base
// leaves it to kubectl -n). Autoscaler is the kind that scales the workers.
var builds = []struct {
	Dir        string
	Namespace  string
	Autoscaler string
}{
	{Dir: "base", Namespace: "", Autoscaler: "ScaledObject"},
	{Dir: "overlays/dev", Namespace: "gusset-dev", Autoscaler: "ScaledObject"},
	{Dir: "overlays/dev-hpa", Namespace: "gusset-dev", Autoscaler: "HorizontalPodAutoscaler"},
}

// Names the service depends on.
const (
	apiName       = "gusset-api"
	apiContainer  = "api"
	workerName    = "gusset-worker"
	redisName     = "redis"
	jobsClaimName = "gusset-jobs"
)

// apiTypes maps "apiVersion/kind" to the Go type an object of that kind
// decodes into. A rendered object of a kind missing here fails the test:
// nothing reaches the cluster unchecked.
var apiTypes = map[string]func() any{
	"apps/v1/Deployment":                     func() any { return new(appsv1.Deployment) },
	"apps/v1/StatefulSet":                    func() any { return new(appsv1.StatefulSet) },
	"v1/Service":                             func() any { return new(corev1.Service) },
	"v1/ConfigMap":                           func() any { return new(corev1.ConfigMap) },
	"v1/Secret":                              func() any { return new(corev1.Secret) },
	"v1/PersistentVolumeClaim":               func() any { return new(corev1.PersistentVolumeClaim) },
	"v1/Namespace":                           func() any { return new(corev1.Namespace) },
	"v1/ServiceAccount":                      func() any { return new(corev1.ServiceAccount) },
	"networking.k8s.io/v1/Ingress":           func() any { return new(networkingv1.Ingress) },
	"policy/v1/PodDisruptionBudget":          func() any { return new(policyv1.PodDisruptionBudget) },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"keda.sh/v1alpha1/ScaledObject":          func() any { return new(ScaledObject) },
	"keda.sh/v1alpha1/TriggerAuthentication": func() any { return new(TriggerAuthentication) },
}

// fileTypes adds the kustomize files themselves, which only raw files hold.
var fileTypes = func() map[string]func() any {
	m := map[string]func() any{
		"kustomize.config.k8s.io/v1beta1/Kustomization": func() any { return new(kusttypes.Kustomization) },
		"kustomize.config.k8s.io/v1alpha1/Component":    func() any { return new(kusttypes.Kustomization) },
	}
	for k, v := range apiTypes {
		m[k] = v
	}
	return m
}()

// object is one decoded object; Value points at its Go type.
type object struct {
	Origin     string
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	Value      any
}

// decodeStrict decodes one JSON object into the type that types gives for
// its apiVersion and kind, case-sensitively and rejecting unknown and
// duplicate fields (sigs.k8s.io/json, the decoder of the API server's
// strict field validation). origin names the object in errors.
func decodeStrict(origin string, data []byte, types map[string]func() any) (object, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return object{}, fmt.Errorf("%s: %w", origin, err)
	}
	key := head.APIVersion + "/" + head.Kind
	mk, ok := types[key]
	if !ok {
		return object{}, fmt.Errorf("%s: no Go type for apiVersion %q kind %q: add the kind to the table in manifests_test.go",
			origin, head.APIVersion, head.Kind)
	}
	v := mk()
	strictErrs, err := kjson.UnmarshalStrict(data, v)
	if err != nil {
		return object{}, fmt.Errorf("%s (%s %s): %w", origin, head.Kind, head.Metadata.Name, err)
	}
	if len(strictErrs) > 0 {
		return object{}, fmt.Errorf("%s (%s %s): %w", origin, head.Kind, head.Metadata.Name, errors.Join(strictErrs...))
	}
	return object{Origin: origin, APIVersion: head.APIVersion, Kind: head.Kind,
		Name: head.Metadata.Name, Namespace: head.Metadata.Namespace, Value: v}, nil
}

// render builds the kustomization in dir in-process with the options that
// kubectl apply -k uses (files only from inside each kustomization root,
// no plugins) and decodes every object strictly.
func render(dir string) ([]object, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	var objs []object
	var errs []error
	for _, r := range m.Resources() {
		data, err := r.MarshalJSON()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s %s: %w", dir, r.GetKind(), r.GetName(), err))
			continue
		}
		o, err := decodeStrict(dir, data, apiTypes)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		objs = append(objs, o)
	}
	return objs, errors.Join(errs...)
}

// splitYAML returns the non-empty documents of a YAML stream as JSON,
// refusing duplicate keys.
func splitYAML(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		j, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, err
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			continue
		}
		docs = append(docs, j)
	}
}

// TestBuildsDecodeStrictly renders every kustomization and decodes each
// object into its API type; a build error, an unknown kind or an unknown
// field fails.
func TestBuildsDecodeStrictly(t *testing.T) {
	for _, b := range builds {
		t.Run(b.Dir, func(t *testing.T) {
			objs, err := render(b.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) == 0 {
				t.Fatalf("%s renders no object", b.Dir)
			}
		})
	}
}

// TestFilesDecodeStrictly decodes every YAML document of every file under
// k8s/ on its own, so that a typo in a patch, a component or a file no
// kustomization lists yet fails too. Patches are partial objects, which
// decode into the same types.
func TestFilesDecodeStrictly(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d YAML files under k8s/: %v", len(files), files)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs, err := splitYAML(data)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(docs) == 0 {
				t.Fatalf("%s holds no object", f)
			}
			for i, doc := range docs {
				if _, err := decodeStrict(fmt.Sprintf("%s#%d", f, i+1), doc, fileTypes); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// inventory indexes the objects of one build by kind and name for the
// cross-object checks.
type inventory struct {
	Dir          string
	Namespace    string
	Objects      []object
	Deployments  map[string]*appsv1.Deployment
	StatefulSets map[string]*appsv1.StatefulSet
	Services     map[string]*corev1.Service
	ConfigMaps   map[string]*corev1.ConfigMap
	Secrets      map[string]*corev1.Secret
	Claims       map[string]*corev1.PersistentVolumeClaim
	Namespaces   map[string]*corev1.Namespace
	Accounts     map[string]*corev1.ServiceAccount
	Ingresses    map[string]*networkingv1.Ingress
	Budgets      map[string]*policyv1.PodDisruptionBudget
	HPAs         map[string]*autoscalingv2.HorizontalPodAutoscaler
	Scaled       map[string]*ScaledObject
	TriggerAuths map[string]*TriggerAuthentication
}

func newInventory(dir, namespace string, objs []object) *inventory {
	inv := &inventory{Dir: dir, Namespace: namespace, Objects: objs,
		Deployments: map[string]*appsv1.Deployment{}, StatefulSets: map[string]*appsv1.StatefulSet{},
		Services: map[string]*corev1.Service{}, ConfigMaps: map[string]*corev1.ConfigMap{},
		Secrets: map[string]*corev1.Secret{}, Claims: map[string]*corev1.PersistentVolumeClaim{},
		Namespaces: map[string]*corev1.Namespace{}, Accounts: map[string]*corev1.ServiceAccount{},
		Ingresses: map[string]*networkingv1.Ingress{}, Budgets: map[string]*policyv1.PodDisruptionBudget{},
		HPAs: map[string]*autoscalingv2.HorizontalPodAutoscaler{}, Scaled: map[string]*ScaledObject{},
		TriggerAuths: map[string]*TriggerAuthentication{},
	}
	for _, o := range objs {
		switch v := o.Value.(type) {
		case *appsv1.Deployment:
			inv.Deployments[o.Name] = v
		case *appsv1.StatefulSet:
			inv.StatefulSets[o.Name] = v
		case *corev1.Service:
			inv.Services[o.Name] = v
		case *corev1.ConfigMap:
			inv.ConfigMaps[o.Name] = v
		case *corev1.Secret:
			inv.Secrets[o.Name] = v
		case *corev1.PersistentVolumeClaim:
			inv.Claims[o.Name] = v
		case *corev1.Namespace:
			inv.Namespaces[o.Name] = v
		case *corev1.ServiceAccount:
			inv.Accounts[o.Name] = v
		case *networkingv1.Ingress:
			inv.Ingresses[o.Name] = v
		case *policyv1.PodDisruptionBudget:
			inv.Budgets[o.Name] = v
		case *autoscalingv2.HorizontalPodAutoscaler:
			inv.HPAs[o.Name] = v
		case *ScaledObject:
			inv.Scaled[o.Name] = v
		case *TriggerAuthentication:
			inv.TriggerAuths[o.Name] = v
		}
	}
	return inv
}

// workload is a Deployment or StatefulSet seen through its pod template.
type workload struct {
	Kind, Name string
	Replicas   *int32
	Selector   *metav1.LabelSelector
	Pod        *corev1.PodTemplateSpec
	Claims     []corev1.PersistentVolumeClaim // StatefulSet volumeClaimTemplates
}

func (inv *inventory) workloads() []workload {
	var ws []workload
	for _, name := range sortedKeys(inv.Deployments) {
		d := inv.Deployments[name]
		ws = append(ws, workload{Kind: "Deployment", Name: name, Replicas: d.Spec.Replicas, Selector: d.Spec.Selector, Pod: &d.Spec.Template})
	}
	for _, name := range sortedKeys(inv.StatefulSets) {
		s := inv.StatefulSets[name]
		ws = append(ws, workload{Kind: "StatefulSet", Name: name, Replicas: s.Spec.Replicas, Selector: s.Spec.Selector,
			Pod: &s.Spec.Template, Claims: s.Spec.VolumeClaimTemplates})
	}
	return ws
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// containers returns the init and regular containers of a pod.
func containers(p *corev1.PodTemplateSpec) []*corev1.Container {
	var cs []*corev1.Container
	for i := range p.Spec.InitContainers {
		cs = append(cs, &p.Spec.InitContainers[i])
	}
	for i := range p.Spec.Containers {
		cs = append(cs, &p.Spec.Containers[i])
	}
	return cs
}

// selects reports whether a label selector selects pods with these labels;
// an empty or invalid selector selects nothing here.
func selects(sel *metav1.LabelSelector, podLabels map[string]string) bool {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	return err == nil && s.Matches(labels.Set(podLabels))
}

// containerEnv is the environment a container gets from literal values,
// ConfigMaps and Secrets of the build (what the pod would see).
func (inv *inventory) containerEnv(c *corev1.Container) map[string]string {
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef != nil {
			if cm := inv.ConfigMaps[ef.ConfigMapRef.Name]; cm != nil {
				for k, v := range cm.Data {
					env[ef.Prefix+k] = v
				}
			}
		}
		if ef.SecretRef != nil {
			for k, v := range secretData(inv.Secrets[ef.SecretRef.Name]) {
				env[ef.Prefix+k] = v
			}
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.ConfigMapKeyRef != nil:
			if cm := inv.ConfigMaps[e.ValueFrom.ConfigMapKeyRef.Name]; cm != nil {
				if v, ok := cm.Data[e.ValueFrom.ConfigMapKeyRef.Key]; ok {
					env[e.Name] = v
				}
			}
		case e.ValueFrom.SecretKeyRef != nil:
			if v, ok := secretData(inv.Secrets[e.ValueFrom.SecretKeyRef.Name])[e.ValueFrom.SecretKeyRef.Key]; ok {
				env[e.Name] = v
			}
		}
	}
	return env
}

// secretData merges a Secret's data and stringData (stringData wins, as
// the API server does); nil for a nil Secret.
func secretData(s *corev1.Secret) map[string]string {
	if s == nil {
		return nil
	}
	m := map[string]string{}
	for k, v := range s.Data {
		m[k] = string(v)
	}
	for k, v := range s.StringData {
		m[k] = v
	}
	return m
}

// portOf resolves a probe or Service port (a number or a port name) against
// a container's declared ports; ok is false when it names none of them.
func portOf(c *corev1.Container, p intstr.IntOrString) (int32, bool) {
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp.ContainerPort, true
		}
	}
	return 0, false
}

// check is one cross-object rule; it returns the problems it finds, so
// that TestChecksCatchBreakage can prove each rule fails on a broken build.
type check struct {
	Name string
	Run  func(inv *inventory) []string
}

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
