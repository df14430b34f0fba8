package k8s_test

import (
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

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
