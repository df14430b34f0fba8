// Package deploy_test checks the deployment files against each other and
// against the code: no Docker engine is needed to learn that a service
// lost its health check, that Prometheus scrapes a port nothing listens
// on, or that Grafana is pointed at a file that is not there.
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"
)

// repoRoot is the module root, where docker-compose.yml lives.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s", root)
	}
	return root
}

// loadProject loads docker-compose.yml with the official loader, as
// `docker compose` would, with every profile enabled (admin is in
// "tools") and an empty environment, so that the defaults written in the
// file are what is checked, not the shell of whoever runs the test.
func loadProject(t *testing.T) *types.Project {
	t.Helper()
	root := repoRoot(t)
	p, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "docker-compose.yml")}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) {
		o.SetProjectName("gusset", true)
		o.Profiles = []string{"*"}
		o.ResolvePaths = true
	})
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	return p
}

func service(t *testing.T, p *types.Project, name string) types.ServiceConfig {
	t.Helper()
	s, ok := p.Services[name]
	if !ok {
		t.Fatalf("docker-compose.yml has no service %q", name)
	}
	return s
}

// env returns a service's environment variable, or the image's default
// for the variables deploy/Dockerfile sets.
func env(s types.ServiceConfig, name string) string {
	if v, ok := s.Environment[name]; ok && v != nil {
		return *v
	}
	return map[string]string{"HOST": "0.0.0.0", "PORT": "8080", "JOBS_DIR": "/data/jobs"}[name]
}

// hostPath maps a path inside a service's container to the repository
// file a bind mount puts there; "" when no bind mount covers it.
func hostPath(t *testing.T, s types.ServiceConfig, inContainer string) string {
	t.Helper()
	for _, v := range s.Volumes {
		if v.Type != types.VolumeTypeBind {
			continue
		}
		if rest, ok := strings.CutPrefix(inContainer, v.Target); ok && (rest == "" || rest[0] == '/') {
			return filepath.Join(v.Source, rest)
		}
	}
	return ""
}

// readYAML decodes a repository file into v, refusing fields v does not
// name: a misspelt key would otherwise be dropped without a word.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Every service reports its health, so that depends_on conditions and
// `docker compose ps` mean something; a service that cannot must say why
// in a "# no healthcheck: <reason>" comment in its block.
func TestComposeHealthchecks(t *testing.T) {
	p := loadProject(t)
	reasons := noHealthcheckReasons(t)
	for name, s := range p.Services {
		t.Run(name, func(t *testing.T) {
			hc := s.HealthCheck
			if hc != nil && !hc.Disable && len(hc.Test) > 1 {
				return
			}
			if reasons[name] == "" {
				t.Errorf("service %s has no health check and no \"# no healthcheck: <reason>\" comment", name)
			}
		})
	}
}

// noHealthcheckReasons reads the "# no healthcheck: reason" comments of
// docker-compose.yml by service (the loader drops comments).
func noHealthcheckReasons(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	serviceKey := regexp.MustCompile(`^  ([a-z0-9_-]+):\s*$`)
	out := map[string]string{}
	inServices, current := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "services:":
			inServices = true
		case len(line) > 0 && line[0] != ' ' && line[0] != '#':
			inServices = false
		case inServices && serviceKey.MatchString(line):
			current = serviceKey.FindStringSubmatch(line)[1]
		}
		if _, reason, ok := strings.Cut(line, "# no healthcheck:"); ok && inServices && current != "" && strings.TrimSpace(reason) != "" {
			out[current] = strings.TrimSpace(reason)
		}
	}
	return out
}

// The shape the README promises: two API replicas behind the proxy, a
// worker that `--scale` can multiply, Redis that keeps its data, one
// image built once.
func TestComposeServices(t *testing.T) {
	p := loadProject(t)
	api, worker, redis, proxy := service(t, p, "api"), service(t, p, "worker"), service(t, p, "redis"), service(t, p, "proxy")

	t.Run("api", func(t *testing.T) {
		if api.Deploy == nil || api.Deploy.Replicas == nil || *api.Deploy.Replicas != 2 {
			t.Error("api must run 2 replicas (deploy.replicas: 2)")
		}
		if len(api.Ports) > 0 {
			t.Errorf("api publishes %v: replicas cannot share a host port; the proxy publishes", api.Ports)
		}
		if api.Build == nil || filepath.ToSlash(api.Build.Dockerfile) != "deploy/Dockerfile" {
			t.Errorf("api must build deploy/Dockerfile, has %+v", api.Build)
		}
		for k, want := range map[string]string{"AUTH_MODE": "keys", "ALLOWED_HOSTS": "*", "JOBS_DIR": "/data/jobs",
			"REDIS_URL": "redis://redis:6379/0", "HOST": "0.0.0.0"} {
			if got := env(api, k); got != want {
				t.Errorf("api %s = %q, want %q", k, got, want)
			}
		}
		if !slices.ContainsFunc(api.Volumes, func(v types.ServiceVolumeConfig) bool {
			return v.Type == types.VolumeTypeVolume && v.Target == env(api, "JOBS_DIR")
		}) {
			t.Error("the replicas must share JOBS_DIR through a named volume")
		}
		checkCommand(t, "api healthcheck", api.HealthCheck.Test, "CMD", "/usr/local/bin/gusset-api", "healthcheck")
		checkCommand(t, "api entrypoint", api.Entrypoint, "/usr/local/bin/gusset-api")
	})

	t.Run("worker", func(t *testing.T) {
		// --scale refuses a fixed container name, and N replicas cannot
		// publish one host port.
		if worker.ContainerName != "" || len(worker.Ports) > 0 {
			t.Errorf("worker has container_name %q and ports %v; --scale needs neither", worker.ContainerName, worker.Ports)
		}
		if worker.Build != nil {
			t.Error("worker builds the image again; it should run the api's (image: gusset:local)")
		}
		if worker.StopGracePeriod == nil || time.Duration(*worker.StopGracePeriod) < 30*time.Second {
			t.Error("worker needs stop_grace_period of at least 30s to hand its task back")
		}
		checkCommand(t, "worker entrypoint", worker.Entrypoint, "/usr/local/bin/gusset-worker")
		checkCommand(t, "worker healthcheck", worker.HealthCheck.Test, "CMD", "/usr/local/bin/gusset-worker", "healthcheck")
		if env(worker, "METRICS_ADDR") == "" {
			t.Error("worker without METRICS_ADDR serves neither /metrics nor /healthz")
		}
	})

	t.Run("redis", func(t *testing.T) {
		cmd := strings.Join(redis.Command, " ")
		for _, want := range []string{"--appendonly yes", "--appendfsync everysec"} {
			if !strings.Contains(cmd, want) {
				t.Errorf("redis command %q lacks %s: a restart would lose the queue and the open jobs", cmd, want)
			}
		}
		// Without a maxmemory Redis grows until the kernel kills it; with
		// one and any policy but noeviction it drops queued tasks and jobs.
		for _, want := range []string{"--maxmemory 1gb", "--maxmemory-policy noeviction"} {
			if !strings.Contains(cmd, want) {
				t.Errorf("redis command %q lacks %s: a full Redis must refuse writes, not die or evict", cmd, want)
			}
		}
		if !slices.ContainsFunc(redis.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Target == "/data" }) {
			t.Error("redis keeps /data in the container only")
		}
	})

	t.Run("proxy", func(t *testing.T) {
		if len(proxy.Ports) != 1 || proxy.Ports[0].Published != "8080" {
			t.Errorf("proxy must publish 8080, has %+v", proxy.Ports)
		}
	})

	t.Run("images", func(t *testing.T) {
		var builders []string
		for name, s := range p.Services {
			if s.Build != nil {
				builders = append(builders, name)
			}
			if s.Image == "" || strings.HasSuffix(s.Image, ":latest") || !strings.Contains(s.Image, ":") {
				t.Errorf("service %s image %q: pin a tag", name, s.Image)
			}
			if s.Image == api.Image && s.Build == nil && name != "api" && s.Entrypoint == nil {
				t.Errorf("service %s runs the gusset image without an entrypoint: it would start an API", name)
			}
		}
		if len(builders) != 1 {
			t.Errorf("services %v build an image; build it once (api) and name it elsewhere", builders)
		}
	})
}

func checkCommand(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

// Every file or directory a service mounts from the repository exists,
// and every named volume is declared.
func TestComposeMountsExist(t *testing.T) {
	p := loadProject(t)
	for name, s := range p.Services {
		for _, v := range s.Volumes {
			switch v.Type {
			case types.VolumeTypeBind:
				if _, err := os.Stat(v.Source); err != nil {
					t.Errorf("service %s mounts %s, which is not in the repository: %v", name, v.Source, err)
				}
			case types.VolumeTypeVolume:
				if _, ok := p.Volumes[v.Source]; !ok {
					t.Errorf("service %s mounts volume %q, which is not declared", name, v.Source)
				}
			}
		}
	}
}

// The Dockerfile builds with the Go of go.mod, builds every service main
// (the compose entry points name them), and runs as the unprivileged user
// with the API's health check.
func TestDockerfile(t *testing.T) {
	root := repoRoot(t)
	df, err := os.ReadFile(filepath.Join(root, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(df)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	for _, want := range []string{
		"FROM golang:" + string(goVersion[1]) + "-bookworm AS build",
		"FROM gcr.io/distroless/static-debian12:nonroot",
		"CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'",
		"RUN go mod download",
		"USER 65532:65532",
		"EXPOSE 8080 9091",
		`CMD ["/usr/local/bin/gusset-api", "healthcheck"]`,
		`ENTRYPOINT ["/usr/local/bin/gusset-api"]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("deploy/Dockerfile lacks %q", want)
		}
	}
	// The build loop names "dir:binary" pairs.
	loop := regexp.MustCompile(`for pair in ([^;]*); do`).FindStringSubmatch(text)
	if loop == nil {
		t.Fatal("deploy/Dockerfile has no `for pair in dir:binary ...; do` build loop")
	}
	built := map[string]string{}
	for _, pair := range strings.Fields(loop[1]) {
		dir, bin, _ := strings.Cut(pair, ":")
		built[dir] = bin
	}
	dirs, err := os.ReadDir(filepath.Join(root, "services"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && built[d.Name()] == "" {
			t.Errorf("deploy/Dockerfile does not build services/%s", d.Name())
		}
	}
	binaries := map[string]bool{}
	for _, b := range built {
		binaries["/usr/local/bin/"+b] = true
	}
	for name, s := range loadProject(t).Services {
		if s.Image == "gusset:local" && len(s.Entrypoint) > 0 && !binaries[s.Entrypoint[0]] {
			t.Errorf("service %s runs %s, which the image does not hold", name, s.Entrypoint[0])
		}
	}
	ignore, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git", "bin/", "data/"} {
		if !slices.Contains(strings.Fields(string(ignore)), want) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
}

// The proxy resolves the API through Docker's DNS on every request
// window, so that replicas that come and go are followed, and lets job
// files through.
func TestProxyConfig(t *testing.T) {
	p := loadProject(t)
	proxy, api := service(t, p, "proxy"), service(t, p, "api")
	path := hostPath(t, proxy, "/etc/nginx/nginx.conf")
	if path == "" {
		t.Fatal("proxy does not mount an nginx.conf from the repository")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	conf := string(b)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`resolver 127\.0\.0\.11 valid=\d+s`),
		regexp.MustCompile(`client_max_body_size 64m;`),
		regexp.MustCompile(`proxy_pass \$\w+;`),
		regexp.MustCompile(`listen ` + regexp.QuoteMeta(proxy.Ports[0].Published) + `;`),
		regexp.MustCompile(`proxy_set_header Authorization \$http_authorization;`),
		regexp.MustCompile(`proxy_set_header X-API-Key \$http_x_api_key;`),
		regexp.MustCompile(`location = /metrics \{\s*return 404;`),
	} {
		if !want.MatchString(conf) {
			t.Errorf("%s lacks %s", path, want)
		}
	}
	// The variable upstream names the api service on the port it serves.
	upstream := regexp.MustCompile(`set \$\w+ http://([a-z0-9_-]+):(\d+);`).FindStringSubmatch(conf)
	if upstream == nil || upstream[1] != "api" || upstream[2] != env(api, "PORT") {
		t.Errorf("proxy upstream %q, want http://api:%s in a variable", upstream, env(api, "PORT"))
	}
}
