package deploy_test

import (
	"encoding/json"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// promConfig is the part of prometheus.yml this deployment uses; decoding
// with known fields only catches a misspelt key, which Prometheus would
// refuse at start.
type promConfig struct {
	Global struct {
		ScrapeInterval     string `yaml:"scrape_interval"`
		EvaluationInterval string `yaml:"evaluation_interval"`
	} `yaml:"global"`
	RuleFiles     []string `yaml:"rule_files"`
	ScrapeConfigs []struct {
		JobName      string `yaml:"job_name"`
		DNSSDConfigs []struct {
			Names           []string `yaml:"names"`
			Type            string   `yaml:"type"`
			Port            int      `yaml:"port"`
			RefreshInterval string   `yaml:"refresh_interval"`
		} `yaml:"dns_sd_configs"`
		StaticConfigs []struct {
			Targets []string `yaml:"targets"`
		} `yaml:"static_configs"`
	} `yaml:"scrape_configs"`
}

// alertRules is the rule file format (groups of rules).
type alertRules struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// The alerts the README explains; a rename must update both.
var wantAlerts = []string{"WorkerLostMidRun", "QueueBacklogGrowing", "QueueTaskWaiting", "NoWorkers", "HighErrorRate", "RedisDown", "RedisStorageFull", "APIDown"}

// Prometheus scrapes every replica of the api and the worker by Docker
// DNS, on the ports they serve metrics on, and loads the alert rules from
// a file the repository has.
func TestPrometheusConfig(t *testing.T) {
	p := loadProject(t)
	prom := service(t, p, "prometheus")
	cfgPath := hostPath(t, prom, "/etc/prometheus/prometheus.yml")
	if cfgPath == "" {
		t.Fatal("prometheus does not mount /etc/prometheus/prometheus.yml from the repository")
	}
	var cfg promConfig
	readYAML(t, cfgPath, &cfg)

	// The port each service serves /metrics on, from its own settings.
	_, workerPort, err := net.SplitHostPort(env(service(t, p, "worker"), "METRICS_ADDR"))
	if err != nil {
		t.Fatal(err)
	}
	wantPorts := map[string]string{"api": env(service(t, p, "api"), "PORT"), "worker": workerPort}
	scraped := map[string]bool{}
	for _, sc := range cfg.ScrapeConfigs {
		for _, sd := range sc.DNSSDConfigs {
			for _, name := range sd.Names {
				t.Run(sc.JobName+"/"+name, func(t *testing.T) {
					if _, ok := p.Services[name]; !ok {
						t.Fatalf("job %s looks up %q, which is not a compose service", sc.JobName, name)
					}
					if sd.Type != "A" {
						t.Errorf("type %q: Docker's DNS answers A records", sd.Type)
					}
					if want := wantPorts[name]; want == "" || want != strconv.Itoa(sd.Port) {
						t.Errorf("port %d, but %s serves metrics on %q", sd.Port, name, want)
					}
					if name != sc.JobName {
						t.Errorf("job %s scrapes %s: the dashboards and alerts select job=\"<service>\"", sc.JobName, name)
					}
				})
				scraped[name] = true
			}
		}
	}
	for name := range wantPorts {
		if !scraped[name] {
			t.Errorf("no dns_sd_configs job scrapes %s", name)
		}
	}
	if len(cfg.RuleFiles) == 0 {
		t.Error("prometheus.yml loads no rule files")
	}
	for _, rf := range cfg.RuleFiles {
		if hp := hostPath(t, prom, rf); hp == "" || !exists(hp) {
			t.Errorf("rule file %s is not a repository file mounted into prometheus", rf)
		}
	}
}

// alerts.yml is a valid rule file: every rule named, with an expression,
// a duration Prometheus reads, a severity and a summary.
func TestAlertRules(t *testing.T) {
	var rules alertRules
	readYAML(t, filepath.Join(repoRoot(t), "deploy", "prometheus", "alerts.yml"), &rules)
	var names []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			t.Run(r.Alert, func(t *testing.T) {
				if r.Alert == "" || strings.TrimSpace(r.Expr) == "" {
					t.Fatalf("rule without a name or an expression in group %s", g.Name)
				}
				if r.For != "" {
					if _, err := time.ParseDuration(r.For); err != nil {
						t.Errorf("for %q: %v", r.For, err)
					}
				}
				if s := r.Labels["severity"]; s != "warning" && s != "critical" {
					t.Errorf("severity %q, want warning or critical", s)
				}
				if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
					t.Error("a summary and a description tell the reader what to do")
				}
				if strings.Count(r.Expr, "(") != strings.Count(r.Expr, ")") {
					t.Errorf("unbalanced parentheses in %q", r.Expr)
				}
			})
			if slices.Contains(names, r.Alert) {
				t.Errorf("alert %s defined twice", r.Alert)
			}
			names = append(names, r.Alert)
		}
	}
	for _, want := range wantAlerts {
		if !slices.Contains(names, want) {
			t.Errorf("alerts.yml has no %s", want)
		}
	}
}

// dashboard is the part of a Grafana dashboard the checks read.
type dashboard struct {
	UID        string  `json:"uid"`
	Title      string  `json:"title"`
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name       string     `json:"name"`
			Datasource datasource `json:"datasource"`
			Definition string     `json:"definition"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	ID         int        `json:"id"`
	Type       string     `json:"type"`
	Title      string     `json:"title"`
	Datasource datasource `json:"datasource"`
	GridPos    struct {
		H int `json:"h"`
		W int `json:"w"`
		X int `json:"x"`
		Y int `json:"y"`
	} `json:"gridPos"`
	Targets []struct {
		Datasource datasource `json:"datasource"`
		Expr       string     `json:"expr"`
	} `json:"targets"`
	Panels []panel `json:"panels"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// readDashboard decodes a dashboard JSON file.
func readDashboard(t *testing.T, path string) dashboard {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// allPanels flattens rows.
func allPanels(ps []panel) []panel {
	var out []panel
	for _, p := range ps {
		out = append(out, p)
		out = append(out, allPanels(p.Panels)...)
	}
	return out
}

// grafanaProvisioning is the datasource and dashboard provisioning of
// Grafana, decoded with known fields.
type grafanaProvisioning struct {
	APIVersion  int `yaml:"apiVersion"`
	Datasources []struct {
		Name      string `yaml:"name"`
		UID       string `yaml:"uid"`
		Type      string `yaml:"type"`
		Access    string `yaml:"access"`
		URL       string `yaml:"url"`
		IsDefault bool   `yaml:"isDefault"`
		Editable  bool   `yaml:"editable"`
	} `yaml:"datasources"`
	Providers []struct {
		Name                  string `yaml:"name"`
		OrgID                 int    `yaml:"orgId"`
		Type                  string `yaml:"type"`
		DisableDeletion       bool   `yaml:"disableDeletion"`
		AllowUIUpdates        bool   `yaml:"allowUiUpdates"`
		UpdateIntervalSeconds int    `yaml:"updateIntervalSeconds"`
		Options               struct {
			Path string `yaml:"path"`
		} `yaml:"options"`
	} `yaml:"providers"`
}

// Grafana's provisioning reaches Prometheus by its compose name, loads
// dashboards from a mounted repository directory, and every dashboard
// queries the provisioned datasource by uid.
func TestGrafanaProvisioning(t *testing.T) {
	p := loadProject(t)
	graf := service(t, p, "grafana")
	provDir := hostPath(t, graf, "/etc/grafana/provisioning")
	if provDir == "" {
		t.Fatal("grafana does not mount /etc/grafana/provisioning from the repository")
	}
	uids := map[string]bool{}
	var dashboardDirs []string
	for _, sub := range []string{"datasources", "dashboards"} {
		files, err := filepath.Glob(filepath.Join(provDir, sub, "*.yml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no provisioning files in %s/%s (%v)", provDir, sub, err)
		}
		for _, f := range files {
			var prov grafanaProvisioning
			readYAML(t, f, &prov)
			for _, ds := range prov.Datasources {
				u, err := url.Parse(ds.URL)
				if err != nil {
					t.Fatalf("%s: datasource url %q: %v", f, ds.URL, err)
				}
				if _, ok := p.Services[u.Hostname()]; !ok || ds.UID == "" {
					t.Errorf("%s: datasource %s at %s (uid %q): not a compose service, or no uid", f, ds.Name, ds.URL, ds.UID)
				}
				uids[ds.UID] = true
			}
			for _, pr := range prov.Providers {
				dir := hostPath(t, graf, pr.Options.Path)
				if dir == "" || !exists(dir) {
					t.Errorf("%s: provider %s reads %s, which no repository directory is mounted on", f, pr.Name, pr.Options.Path)
					continue
				}
				dashboardDirs = append(dashboardDirs, dir)
			}
		}
	}
	if home := env(graf, "GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"); home != "" {
		if hp := hostPath(t, graf, home); hp == "" || !exists(hp) {
			t.Errorf("home dashboard %s is not a mounted repository file", home)
		}
	}
	var dashboards []string
	for _, dir := range dashboardDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		dashboards = append(dashboards, files...)
	}
	if len(dashboards) == 0 {
		t.Fatal("no dashboard is provisioned")
	}
	for _, f := range dashboards {
		d := readDashboard(t, f)
		t.Run(d.Title, func(t *testing.T) {
			if d.UID == "" {
				t.Error("a dashboard without a uid gets a new URL on every load")
			}
			ids := map[int]bool{}
			for _, pn := range allPanels(d.Panels) {
				if ids[pn.ID] {
					t.Errorf("panel id %d used twice", pn.ID)
				}
				ids[pn.ID] = true
				if pn.GridPos.X+pn.GridPos.W > 24 {
					t.Errorf("panel %q is wider than the 24-column grid", pn.Title)
				}
				if pn.Type == "row" {
					continue
				}
				for _, ds := range append([]datasource{pn.Datasource}, targetSources(pn)...) {
					if !uids[ds.UID] {
						t.Errorf("panel %q queries datasource uid %q, which is not provisioned", pn.Title, ds.UID)
					}
				}
				if len(pn.Targets) == 0 {
					t.Errorf("panel %q has no query", pn.Title)
				}
			}
			for _, v := range d.Templating.List {
				if !uids[v.Datasource.UID] {
					t.Errorf("variable %s queries datasource uid %q, which is not provisioned", v.Name, v.Datasource.UID)
				}
			}
		})
	}
}

func targetSources(p panel) []datasource {
	var out []datasource
	for _, tg := range p.Targets {
		out = append(out, tg.Datasource)
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
