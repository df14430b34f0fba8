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
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	kusttypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
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
