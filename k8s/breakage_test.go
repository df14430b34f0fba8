package k8s_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestChecksCatchBreakage proves that each check can fail: it breaks one
// thing in a freshly rendered dev build and expects the check to name it.
// A check that passes everything would otherwise go unnoticed.
func TestChecksCatchBreakage(t *testing.T) {
	cases := []struct {
		name   string
		check  func(*inventory) []string
		want   string // a substring of one reported problem
		mutate func(t *testing.T, inv *inventory)
	}{
		{"worker root file system writable", checkContainers, "readOnlyRootFilesystem", func(t *testing.T, inv *inventory) {
			container(t, inv, workerName, "worker").SecurityContext.ReadOnlyRootFilesystem = ptr(false)
		}},
		{"api runs as root", checkContainers, "runAsNonRoot", func(t *testing.T, inv *inventory) {
			container(t, inv, apiName, apiContainer).SecurityContext.RunAsNonRoot = ptr(false)
		}},
		{"worker has no memory limit", checkContainers, "no memory limit", func(t *testing.T, inv *inventory) {
			delete(container(t, inv, workerName, "worker").Resources.Limits, corev1.ResourceMemory)
		}},
		{"limit below request", checkContainers, "below request", func(t *testing.T, inv *inventory) {
			container(t, inv, apiName, apiContainer).Resources.Limits[corev1.ResourceMemory] = resource.MustParse("1Mi")
		}},
		{"api readiness on /healthz", checkAPI, "readinessProbe path", func(t *testing.T, inv *inventory) {
			container(t, inv, apiName, apiContainer).ReadinessProbe.HTTPGet.Path = "/healthz"
		}},
		{"api liveness on another port", checkAPI, "livenessProbe port", func(t *testing.T, inv *inventory) {
			c := container(t, inv, apiName, apiContainer)
			c.Ports = append(c.Ports, corev1.ContainerPort{Name: "other", ContainerPort: 9000})
			c.LivenessProbe.HTTPGet.Port = intstr.FromString("other")
		}},
		{"api in open mode", checkAPI, "AUTH_MODE", func(t *testing.T, inv *inventory) {
			inv.ConfigMaps["gusset-config"].Data["AUTH_MODE"] = "open"
		}},
		{"worker probe on an undeclared port", checkProbePorts, "not declared", func(t *testing.T, inv *inventory) {
			container(t, inv, workerName, "worker").LivenessProbe.HTTPGet.Port = intstr.FromString("metricz")
		}},
		{"secret key misspelt", checkEnvRefs, "Secret gusset-redis key REDIS_ULR", func(t *testing.T, inv *inventory) {
			for _, e := range container(t, inv, apiName, apiContainer).Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
					e.ValueFrom.SecretKeyRef.Key = "REDIS_ULR"
				}
			}
		}},
		{"config map missing", checkEnvRefs, "envFrom ConfigMap", func(t *testing.T, inv *inventory) {
			delete(inv.ConfigMaps, "gusset-config")
		}},
		{"KEDA secret key missing", checkEnvRefs, "TriggerAuthentication", func(t *testing.T, inv *inventory) {
			delete(inv.Secrets["gusset-redis"].StringData, "REDIS_ADDRESS")
		}},
		{"jobs claim ReadWriteOnce", checkVolumes, "want ReadWriteMany", func(t *testing.T, inv *inventory) {
			inv.Claims[jobsClaimName].Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
		}},
		{"jobs claim missing", checkVolumes, "not in the build", func(t *testing.T, inv *inventory) {
			delete(inv.Claims, jobsClaimName)
		}},
		{"JOBS_DIR off the shared volume", checkVolumes, "JOBS_DIR", func(t *testing.T, inv *inventory) {
			inv.ConfigMaps["gusset-config"].Data["JOBS_DIR"] = "/var/jobs"
		}},
		{"scaled list of another queue", checkAutoscaling, "listName", func(t *testing.T, inv *inventory) {
			inv.Scaled[workerName].Spec.Triggers[0].Metadata["listName"] = "asynq:{default}:pending"
		}},
		{"scaled list without braces", checkAutoscaling, "no redis trigger on", func(t *testing.T, inv *inventory) {
			for _, tr := range inv.Scaled[workerName].Spec.Triggers {
				tr.Metadata["listName"] = strings.NewReplacer("{", "", "}", "").Replace(tr.Metadata["listName"])
			}
		}},
		{"scaled target renamed", checkAutoscaling, "scaleTargetRef", func(t *testing.T, inv *inventory) {
			inv.Scaled[workerName].Spec.ScaleTargetRef.Name = "gusset-workers"
		}},
		{"formula names a missing trigger", checkAutoscaling, "no trigger name", func(t *testing.T, inv *inventory) {
			inv.Scaled[workerName].Spec.Advanced.ScalingModifiers.Formula = "pending + running"
		}},
		{"worker sets replicas", checkAutoscaling, "sets replicas", func(t *testing.T, inv *inventory) {
			inv.Deployments[workerName].Spec.Replicas = ptr(int32(2))
		}},
		{"service selector matches nothing", checkServices, "matches the pods of no workload", func(t *testing.T, inv *inventory) {
			inv.Services[apiName].Spec.Selector = map[string]string{"app": "gusset-api"}
		}},
		{"service target port undeclared", checkServices, "targetPort", func(t *testing.T, inv *inventory) {
			inv.Services[apiName].Spec.Ports[0].TargetPort = intstr.FromInt32(8081)
		}},
		{"redis service not headless", checkServices, "headless", func(t *testing.T, inv *inventory) {
			inv.Services[redisName].Spec.ClusterIP = ""
		}},
		{"api budget selects nothing", checkBudgets, "no workload", func(t *testing.T, inv *inventory) {
			inv.Budgets[apiName].Spec.Selector.MatchLabels = map[string]string{"app.kubernetes.io/name": "api"}
		}},
		{"api budget blocks drains", checkBudgets, "blocks every eviction", func(t *testing.T, inv *inventory) {
			inv.Budgets[apiName].Spec.MinAvailable = ptr(intstr.FromInt32(2))
		}},
		{"redis without fsync policy", checkRedis, "--appendfsync everysec", func(t *testing.T, inv *inventory) {
			c := &inv.StatefulSets[redisName].Spec.Template.Spec.Containers[0]
			c.Args = []string{"--appendonly", "yes"}
		}},
		{"redis appendonly no", checkRedis, "--appendonly yes", func(t *testing.T, inv *inventory) {
			c := &inv.StatefulSets[redisName].Spec.Template.Spec.Containers[0]
			c.Args[1] = "no"
		}},
		{"ingress host not allowed", checkIngress, "ALLOWED_HOSTS", func(t *testing.T, inv *inventory) {
			inv.Ingresses[apiName].Spec.Rules[0].Host = "gusset.other.example"
		}},
		{"ingress body size default", checkIngress, "proxy-body-size", func(t *testing.T, inv *inventory) {
			delete(inv.Ingresses[apiName].Annotations, "nginx.ingress.kubernetes.io/proxy-body-size")
		}},
		{"object outside the namespace", checkNamespaces, "namespace", func(t *testing.T, inv *inventory) {
			inv.Objects[len(inv.Objects)-1].Namespace = ""
		}},
		{"token mounted", checkAccounts, "token", func(t *testing.T, inv *inventory) {
			inv.Deployments[apiName].Spec.Template.Spec.AutomountServiceAccountToken = nil
			inv.Accounts["gusset"].AutomountServiceAccountToken = nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv := mustInventory(t, "overlays/dev", "gusset-dev")
			if ps := tc.check(inv); len(ps) > 0 {
				t.Fatalf("unbroken build already fails: %v", ps)
			}
			tc.mutate(t, inv)
			ps := tc.check(inv)
			for _, p := range ps {
				if strings.Contains(p, tc.want) {
					return
				}
			}
			t.Errorf("check reported %q, want a problem containing %q", ps, tc.want)
		})
	}
}

// container returns a container of a Deployment of the build for a case to
// break, failing the test if it is missing.
func container(t *testing.T, inv *inventory, deployment, name string) *corev1.Container {
	t.Helper()
	d := inv.Deployments[deployment]
	if d == nil {
		t.Fatalf("no Deployment %s", deployment)
	}
	for i := range d.Spec.Template.Spec.Containers {
		if c := &d.Spec.Template.Spec.Containers[i]; c.Name == name {
			return c
		}
	}
	t.Fatalf("Deployment %s has no container %s", deployment, name)
	return nil
}

// TestStrictDecodeRejects proves that the decoding is strict: a misspelt
// field, a field in the wrong case, a duplicate field, a wrongly typed
// value and a kind without a Go type all fail, where a lenient decoder
// would drop or coerce them silently.
func TestStrictDecodeRejects(t *testing.T) {
	cases := []struct {
		name, yaml string
	}{
		{"unknown field", `
apiVersion: apps/v1
kind: Deployment
metadata: {name: x}
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: c
          readinesProbe: {httpGet: {path: /readyz, port: 8080}}
`},
		{"field in the wrong case", `
apiVersion: v1
kind: Service
metadata: {name: x}
spec:
  Selector: {app: x}
`},
		{"duplicate field", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {}, "data": {}}`},
		{"number for a string", `
apiVersion: v1
kind: ConfigMap
metadata: {name: x}
data: {PORT: 8080}
`},
		{"unknown KEDA field", `
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: x}
spec:
  scaleTargetRef: {name: x}
  maxReplicas: 10
  triggers: []
`},
		{"kind without a Go type", `
apiVersion: batch/v1
kind: Job
metadata: {name: x}
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := splitYAML([]byte(tc.yaml))
			if err != nil {
				t.Logf("rejected while reading, as wanted: %v", err)
				return
			}
			for _, d := range docs {
				if _, err := decodeStrict(tc.name, d, fileTypes); err != nil {
					t.Logf("rejected as wanted: %v", err)
					return
				}
			}
			t.Errorf("decoded without error:\n%s", tc.yaml)
		})
	}
}
