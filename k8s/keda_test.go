package k8s_test

// Local Go mirrors of KEDA's keda.sh/v1alpha1 ScaledObject and
// TriggerAuthentication, written from KEDA's published API (the Go types of
// github.com/kedacore/keda/v2/apis/keda/v1alpha1 and the CRDs generated
// from them, KEDA 2.12 and later): field names and JSON tags follow that
// API, so a strict decode rejects what KEDA's CRD schema would prune or
// refuse.
//
// Why a mirror rather than an import: importing KEDA's API package (v2.21)
// grows go.sum from 196 to 243 lines and this test's package graph from
// about 560 to about 1,020 packages (client-go, controller-runtime, ...),
// holds k8s.io/api at v0.36, and upgrades fasthttp (v1.51 to v1.73) and
// other modules that the service binaries link. The manifests use a small
// part of the API.
//
// Only the spec fields a gusset manifest may reasonably use are mirrored.
// A manifest that uses another KEDA field fails the strict decode: add the
// field here, from KEDA's API, rather than loosening the decode.

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ScaledObject mirrors keda.sh/v1alpha1 ScaledObject (no status: a
// manifest never carries one).
type ScaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ScaledObjectSpec `json:"spec"`
}

// ScaledObjectSpec mirrors the spec of a ScaledObject.
type ScaledObjectSpec struct {
	ScaleTargetRef        *ScaleTarget    `json:"scaleTargetRef"`
	PollingInterval       *int32          `json:"pollingInterval,omitempty"`
	InitialCooldownPeriod *int32          `json:"initialCooldownPeriod,omitempty"`
	CooldownPeriod        *int32          `json:"cooldownPeriod,omitempty"`
	IdleReplicaCount      *int32          `json:"idleReplicaCount,omitempty"`
	MinReplicaCount       *int32          `json:"minReplicaCount,omitempty"`
	MaxReplicaCount       *int32          `json:"maxReplicaCount,omitempty"`
	Advanced              *AdvancedConfig `json:"advanced,omitempty"`
	Triggers              []ScaleTriggers `json:"triggers"`
	Fallback              *Fallback       `json:"fallback,omitempty"`
}

// ScaleTarget names the workload KEDA scales; Kind defaults to Deployment.
type ScaleTarget struct {
	Name                   string `json:"name"`
	APIVersion             string `json:"apiVersion,omitempty"`
	Kind                   string `json:"kind,omitempty"`
	EnvSourceContainerName string `json:"envSourceContainerName,omitempty"`
}

// AdvancedConfig mirrors spec.advanced.
type AdvancedConfig struct {
	HorizontalPodAutoscalerConfig *HorizontalPodAutoscalerConfig `json:"horizontalPodAutoscalerConfig,omitempty"`
	RestoreToOriginalReplicaCount bool                           `json:"restoreToOriginalReplicaCount,omitempty"`
	ScalingModifiers              ScalingModifiers               `json:"scalingModifiers,omitempty"`
}

// HorizontalPodAutoscalerConfig tunes the HPA that KEDA creates.
type HorizontalPodAutoscalerConfig struct {
	Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
	Name     string                                         `json:"name,omitempty"`
}

// ScalingModifiers combines named triggers with a formula into one metric.
type ScalingModifiers struct {
	Formula          string                         `json:"formula,omitempty"`
	Target           string                         `json:"target,omitempty"`
	ActivationTarget string                         `json:"activationTarget,omitempty"`
	MetricType       autoscalingv2.MetricTargetType `json:"metricType,omitempty"`
}

// Fallback is the replica count used while the scaler keeps failing.
type Fallback struct {
	FailureThreshold int32  `json:"failureThreshold"`
	Replicas         int32  `json:"replicas"`
	Behavior         string `json:"behavior,omitempty"`
}

// ScaleTriggers is one trigger; Metadata is scaler-specific (for the redis
// scaler: listName, listLength, databaseIndex, ...).
type ScaleTriggers struct {
	Type              string                         `json:"type"`
	Name              string                         `json:"name,omitempty"`
	UseCachedMetrics  bool                           `json:"useCachedMetrics,omitempty"`
	Metadata          map[string]string              `json:"metadata"`
	AuthenticationRef *AuthenticationRef             `json:"authenticationRef,omitempty"`
	MetricType        autoscalingv2.MetricTargetType `json:"metricType,omitempty"`
}

// AuthenticationRef names a TriggerAuthentication (the default Kind) or a
// ClusterTriggerAuthentication.
type AuthenticationRef struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

// TriggerAuthentication mirrors keda.sh/v1alpha1 TriggerAuthentication,
// limited to the Kubernetes-native sources (Secrets, ConfigMaps, the
// target's environment, a file path); the cloud secret stores are left
// out.
type TriggerAuthentication struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              TriggerAuthenticationSpec `json:"spec"`
}

// TriggerAuthenticationSpec mirrors the mirrored part of its spec.
type TriggerAuthenticationSpec struct {
	SecretTargetRef    []AuthTargetRef   `json:"secretTargetRef,omitempty"`
	ConfigMapTargetRef []AuthTargetRef   `json:"configMapTargetRef,omitempty"`
	Env                []AuthEnvironment `json:"env,omitempty"`
	FilePath           string            `json:"filePath,omitempty"`
}

// AuthTargetRef sets the scaler parameter Parameter from key Key of the
// Secret (or ConfigMap) Name.
type AuthTargetRef struct {
	Parameter string `json:"parameter"`
	Name      string `json:"name"`
	Key       string `json:"key"`
}

// AuthEnvironment sets a scaler parameter from an environment variable of
// the scale target's container.
type AuthEnvironment struct {
	Parameter     string `json:"parameter"`
	Name          string `json:"name"`
	ContainerName string `json:"containerName,omitempty"`
}
