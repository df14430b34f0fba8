package archtest

// Rule states what the packages it covers may import. The standard library
// is always allowed unless Deny names it; any other import must be named.
// Patterns are exact paths or subtrees ("pkg/fem/..." matches pkg/fem and
// everything below it). Module packages are named relative to the module
// root, everything else by import path.
//
// Rules do not inherit from each other: the most specific rule for a
// package (exact path, else longest subtree) is the only one that applies,
// so a package rule must repeat its subtree's Deny list.
type Rule struct {
	// Package is the module-relative directory the rule covers, exact
	// ("pkg/editor") or a subtree ("pkg/fem/...").
	Package string
	// Why is the reason for the rule, printed with every violation so the
	// developer learns what the rule protects before widening it.
	Why string
	// Allow lists the module packages every file of the package may import.
	Allow []string
	// External lists the packages outside the module and the standard
	// library that every file may import, e.g. "gonum.org/v1/gonum/...".
	External []string
	// Deny lists imports no file may use even though the standard library
	// or Allow would admit them: "net/http/..." for packages that must stay
	// ignorant of HTTP, or a module package a subtree Allow would include.
	Deny []string
	// TestAllow lists the module packages the package's _test.go files may
	// import in addition to Allow: test helpers, fixtures from siblings.
	// It lifts Deny for test files.
	TestAllow []string
	// TestExternal lists what the _test.go files may import from outside
	// the module in addition to External. It lifts Deny for test files.
	TestExternal []string
}

// Import patterns named by several rules.
const (
	gonum      = "gonum.org/v1/gonum/..."
	xsys       = "golang.org/x/sys/..."
	goRedis    = "github.com/redis/go-redis/..."
	asynq      = "github.com/hibiken/asynq/..."
	fiber      = "github.com/gofiber/..."
	fasthttp   = "github.com/valyala/fasthttp/..."
	miniredis  = "github.com/alicebob/miniredis/..."
	prometheus = "github.com/prometheus/client_golang/..."
	uuid       = "github.com/google/uuid"
	testutil   = "pkg/testutil/..."
	femTree    = "pkg/fem/..."
	modelTree  = "pkg/model/..."
)

// Deny lists shared by rules (read only).
var (
	// The engine and the domain packages are used by callers other than
	// the HTTP edge (the worker, the standalone, benchmarks), so none of
	// them may assume a request or a server.
	noHTTP = []string{"net/http/..."}
	// The middle layer runs in the worker and the standalone as well as
	// behind the HTTP edge: no web framework, no queue.
	noTransport = []string{"net/http/...", fiber, fasthttp, asynq}
	// The model is the vocabulary every layer shares; it knows nothing of
	// transport, storage or queueing.
	noService = []string{"net/http/...", goRedis, asynq, fiber, fasthttp}
	// Storage is reached from the worker and the standalone as well as the
	// HTTP edge, so it must not depend on the web framework.
	noFiber = []string{fiber, fasthttp}
)

// Rules is the import table of the repository. Every package directory
// holding .go files must match a rule; a rule whose directory does not
// exist yet (packages being created) is not an error.
var Rules = []Rule{
	// Wiring and tools. The subtree rule covers a new service until it
	// needs a rule of its own.
	{Package: "services/...", Why: "a main only wires the service together through pkg/server",
		Allow: []string{"pkg/server"}, TestAllow: []string{testutil}},
	{Package: "services/api", Why: "a main only wires the service together through pkg/server",
		Allow: []string{"pkg/server"},
		// TODO(architecture): restart_test.go decodes responses into
		// pkg/model types; a main's tests should need pkg/testutil only.
		// cluster_test.go (tag cluster) counts the grid job's free nodes
		// with pkg/fem/gridn to check each workspace's reactions.
		TestAllow: []string{testutil, "pkg/model", "pkg/fem/gridn"}},
	{Package: "services/worker", Why: "a main only wires the service together through pkg/server",
		Allow: []string{"pkg/server"},
		// TODO(architecture): fault_test.go (tag fault) builds jobs from
		// pkg/model types; a main's tests should need pkg/testutil only.
		TestAllow: []string{testutil, "pkg/model"}},
	// TODO(architecture): gridgen is a tool, not a service: it writes the
	// grid-n benchmark matrices straight from the engine. It belongs beside
	// the engine (e.g. pkg/fem/gridn/cmd) rather than under services/.
	{Package: "services/gridgen", Why: "a benchmark tool over the engine only",
		Allow: []string{"pkg/fem/gridn", "pkg/fem/sparse"}},
	{Package: "examples", Why: "the examples drive a whole service as a client would",
		TestAllow: []string{"pkg/server", "pkg/model/library", testutil}},
	{Package: "pkg/archtest", Why: "it reads source files and needs nothing else"},
	{Package: "deploy", Why: "only tests: they load the compose, Prometheus and Grafana files and run the real api and worker to check the metrics the dashboards and alerts read",
		TestAllow: []string{"pkg/server", testutil}, TestExternal: []string{"github.com/compose-spec/compose-go/...", "go.yaml.in/yaml/..."}},
	{Package: "deploy/composetest", Why: "only tests (tag compose): they bring docker-compose.yml up and drive it as a client and an operator would, beside the standalone for comparison",
		TestAllow: []string{"pkg/server", "pkg/model", "pkg/fem/gridn", testutil}, TestExternal: []string{"go.yaml.in/yaml/..."}},
	// The deployment manifests are checked by test-only packages beside
	// them; the Kubernetes and kustomize modules never reach a binary.
	{Package: "k8s", Why: "the manifests' tests render and decode them, and read the service's own limits and queue name",
		TestAllow: []string{"pkg/httpapi", "pkg/queue"}, TestExternal: []string{"k8s.io/...", "sigs.k8s.io/..."}},

	// The server assembles the middle layer and the embedded Redis of the
	// standalone.
	{Package: "pkg/server", Why: "the server wires the middle layer; it talks to Fiber and asynq only through pkg/httpapi and pkg/queue",
		Allow: []string{"pkg/admin", "pkg/analysis/...", "pkg/auth", "pkg/editor", "pkg/httpapi", "pkg/jobfile", "pkg/model", "pkg/queue",
			"pkg/session", "pkg/store", "pkg/store/redisstore"},
		External: []string{miniredis, prometheus, goRedis},
		// Tests compare what the service stores with the engine's own
		// answer on the same model, and look into the queue for what a
		// cancelled run left behind.
		TestAllow:    []string{"pkg/fem/static", "pkg/fem/domain", "pkg/fem/dynamic", "pkg/fem/modal", "pkg/samples", testutil},
		TestExternal: []string{asynq}},

	// The middle layer.
	// It redacts API keys from its logs with pkg/auth, which alone knows
	// their shape; keys are checked through the Authenticator interface.
	{Package: "pkg/httpapi", Why: "the HTTP edge translates requests for the layer below",
		Allow: []string{"pkg/analysis", "pkg/analysis/kinds", "pkg/analysis/query", "pkg/analysis/service", "pkg/auth", "pkg/editor", "pkg/jobfile", "pkg/model", "pkg/model/library",
			"pkg/model/vehicles", "pkg/samples", "pkg/session", "pkg/sgtext", "pkg/store", "pkg/webui"},
		External:  []string{fiber, fasthttp, prometheus},
		TestAllow: []string{"pkg/store/redisstore", testutil}, TestExternal: []string{goRedis}},
	{Package: "pkg/session", Why: "sessions know storage interfaces, not transport",
		Allow:     []string{"pkg/jobfile", "pkg/model", "pkg/samples", "pkg/sgtext", "pkg/store"},
		TestAllow: []string{"pkg/editor", "pkg/store/redisstore", testutil}, TestExternal: []string{goRedis}},
	{Package: "pkg/store", Why: "the storage interfaces are shared by every process, and know no web framework",
		Allow: []string{"pkg/model"}, Deny: noFiber},
	{Package: "pkg/store/redisstore", Why: "the Redis store implements pkg/store and pkg/auth's key store, and knows no web framework",
		Allow: []string{"pkg/auth", "pkg/model", "pkg/store"}, External: []string{goRedis}, Deny: noFiber,
		TestAllow: []string{testutil}},
	{Package: "pkg/auth", Why: "API keys and workspaces are rules over a key store, reached through an interface",
		Allow: []string{"pkg/model"}, Deny: noService,
		// The tests run the rules against the Redis key store.
		TestAllow: []string{"pkg/store/redisstore", testutil}, TestExternal: []string{goRedis}},
	{Package: "pkg/admin", Why: "the admin command parses arguments and prints; pkg/auth holds the rules",
		Allow: []string{"pkg/auth", "pkg/model"}, Deny: noService,
		TestAllow: []string{"pkg/store/redisstore", testutil}},
	{Package: "pkg/queue", Why: "the queue is the only package besides the wiring that knows asynq",
		Allow: []string{"pkg/model"}, External: []string{asynq, goRedis}, TestAllow: []string{testutil}},
	{Package: "pkg/sgtext", Why: "the text file format turns text into the rows the editor stores and back; it knows no transport nor storage",
		Allow: []string{"pkg/editor", "pkg/model", "pkg/model/library", "pkg/store"}, Deny: noService,
		TestAllow: []string{"pkg/jobfile", "pkg/samples"}},
	{Package: "pkg/jobfile", Why: "job files are read by every process; they know the model and storage only",
		Allow: []string{"pkg/model", "pkg/store"}},
	{Package: "pkg/webui", Why: "the browser pages are files; package httpapi serves them",
		Deny: []string{"net/http/...", fiber, fasthttp}},
	{Package: "pkg/samples", Why: "samples are model data",
		Allow:     []string{"pkg/model"},
		TestAllow: []string{"pkg/jobfile", "pkg/model/library", "pkg/model/vehicles", "pkg/store"}},
	// The middle layer between the HTTP edge and the engine: the registry
	// of analysis kinds (pkg/analysis) over the run lifecycle, the result
	// columns and queries, the model adapter and the API's side of runs;
	// the kinds themselves in packages of their own; none of it knows a
	// web framework or the queue.
	{Package: "pkg/analysis", Why: "the registry of analysis kinds knows the lifecycle and the query layer, not the kinds",
		Allow: []string{"pkg/analysis/lifecycle", "pkg/analysis/query", "pkg/model", "pkg/store"}, Deny: noTransport,
		TestAllow: []string{"pkg/analysis/kinds", "pkg/archtest"}},
	{Package: "pkg/analysis/adapter", Why: "the adapter reads the model through the editor and builds the engine's",
		Allow: []string{"pkg/editor", "pkg/fem/domain", "pkg/fem/geom", "pkg/fem/shell", "pkg/model"}, Deny: noTransport,
		// The tests solve the samples with the engine and read them from
		// job files into Redis.
		TestAllow: []string{"pkg/fem/dynamic", "pkg/fem/modal", "pkg/fem/static", "pkg/jobfile", "pkg/samples", "pkg/store",
			"pkg/store/redisstore", testutil}},
	{Package: "pkg/analysis/columns", Why: "the stored result layouts take the engine model's ids and check job files",
		Allow: []string{"pkg/fem/domain", "pkg/model", "pkg/store"}, Deny: noTransport},
	{Package: "pkg/analysis/query", Why: "the query layer reads stored results and the model, for any family",
		Allow: []string{"pkg/analysis/adapter", "pkg/analysis/columns", "pkg/model", "pkg/store"}, Deny: noTransport},
	{Package: "pkg/analysis/lifecycle", Why: "the run lifecycle knows the store, the model reader and the column names, not the kinds nor the engine",
		Allow: []string{"pkg/analysis/adapter", "pkg/analysis/columns", "pkg/model", "pkg/store"}, Deny: noTransport,
		// The tests run the standard kinds against Redis.
		TestAllow: []string{"pkg/analysis/kinds", "pkg/analysis/service", "pkg/analysis/statics", "pkg/editor", "pkg/store/redisstore", testutil}},
	{Package: "pkg/analysis/service", Why: "the API's side of runs records them and queues their tasks",
		Allow: []string{"pkg/analysis/lifecycle", "pkg/model", "pkg/store"}, External: []string{uuid}, Deny: noTransport},
	{Package: "pkg/analysis/statics", Why: "the static family solves with the static and non-linear engines",
		Allow: []string{"pkg/analysis", "pkg/analysis/adapter", "pkg/analysis/columns", "pkg/analysis/lifecycle", "pkg/analysis/query",
			"pkg/fem/domain", "pkg/fem/geom", "pkg/fem/linsys", "pkg/fem/nonlinear", "pkg/fem/shell", "pkg/fem/sparse", "pkg/fem/static", "pkg/model", "pkg/store"},
		Deny: noTransport},
	{Package: "pkg/analysis/eigen", Why: "the buckling and frequency families solve with the modal engines",
		Allow: []string{"pkg/analysis", "pkg/analysis/adapter", "pkg/analysis/columns", "pkg/analysis/lifecycle", "pkg/analysis/query",
			"pkg/fem/buckling", "pkg/fem/domain", "pkg/fem/dynamic", "pkg/fem/linsys", "pkg/fem/modal", "pkg/fem/static", "pkg/model", "pkg/store"},
		Deny: noTransport},
	{Package: "pkg/analysis/kinds", Why: "the standard registry names the standard kinds",
		Allow: []string{"pkg/analysis", "pkg/analysis/eigen", "pkg/analysis/statics"}, Deny: noTransport},
	{Package: "pkg/editor", Why: "editing is domain logic; storage is reached through pkg/store interfaces",
		Allow: []string{"pkg/fem/geom", "pkg/model", "pkg/model/movingload", "pkg/store"},
		Deny:  noService,
		// TODO(architecture): list_test, users_test and cascade_test run the
		// editor against the Redis store (pkg/store/redisstore, redistest),
		// and cascade_test.go holds a go-redis client itself. The editor is
		// to know no Redis; a fake pkg/store would keep its tests so too.
		TestAllow: []string{"pkg/store/redisstore", testutil}, TestExternal: []string{goRedis}},

	// Test helpers: only test files import them (no Allow names them
	// outside this subtree).
	{Package: "pkg/testutil/gridjob", Why: "builds the grid-n job as a job file",
		Allow: []string{"pkg/fem/gridn", "pkg/jobfile", "pkg/model", "pkg/store"}},
	{Package: "pkg/testutil/logtest", Why: "log buffers and listeners' addresses for tests, over the standard library only"},
	{Package: "pkg/testutil/peak", Why: "samples a peak (resident memory, the heap) for tests and benchmarks, over the standard library only"},
	{Package: "pkg/testutil/browser", Why: "drives headless Chromium over a pipe through the standard library only"},
	{Package: "pkg/testutil/proctest", Why: "starts and probes service processes through the standard library only"},
	{Package: "pkg/testutil/redistest", Why: "starts a redis-server for tests",
		External: []string{goRedis}},

	// The model: the vocabulary shared by every layer above the engine.
	{Package: modelTree, Why: "the model knows nothing of HTTP, Redis, asynq or Fiber",
		Allow: []string{femTree, modelTree}, External: []string{gonum}, Deny: noService},

	// The engine. The subtree rule is its envelope: it covers engine
	// packages without a rule of their own, and TestRulesWellFormed keeps
	// every package rule inside it.
	{Package: femTree, Why: "the engine imports only itself, gonum and x/sys",
		Allow: []string{femTree}, External: []string{gonum, xsys}, Deny: noHTTP},
	// The one geom package: the model (moving-load areas, plate checks) and
	// the editor import it too, which the model rule's pkg/fem/... allows.
	{Package: "pkg/fem/geom", Why: "vectors, rotations, axes, plates and polygons are the engine's floor, shared with the model",
		Deny: noHTTP},
	{Package: "pkg/fem/transform", Why: "transformations build on geometry only",
		Allow: []string{"pkg/fem/geom"}, Deny: noHTTP},
	{Package: "pkg/fem/element", Why: "elements know geometry and transformations, not assembly or solvers",
		Allow: []string{"pkg/fem/geom", "pkg/fem/transform"}, Deny: noHTTP,
		// The tests check stiffness matrices against dense gonum algebra.
		TestExternal: []string{gonum}},
	{Package: "pkg/fem/shell", Why: "shell elements are pure functions in their own plane, like frames",
		Deny: noHTTP,
		// The tests check against dense gonum algebra and the Navier series.
		TestAllow: []string{"pkg/fem/internal/navier"}, TestExternal: []string{gonum}},
	{Package: "pkg/fem/internal/navier", Why: "the plate reference series needs the standard library only",
		Deny: noHTTP},
	{Package: "pkg/fem/internal/platecase", Why: "the plate test meshes are engine models",
		Allow: []string{"pkg/fem/domain", "pkg/fem/shell"}, Deny: noHTTP},
	{Package: "pkg/fem/sparse/kernel", Why: "the SIMD kernels need CPU feature detection only",
		External: []string{"golang.org/x/sys/cpu"}, Deny: noHTTP},
	// pkg/fem/internal/par (a worker pool over the standard library) is the
	// floor of the engine beside geom; sparse and domain assemble in parallel
	// with it.
	{Package: "pkg/fem/internal/memprobe", Why: "the memory probe of the estimate tests reads the runtime and the factor's mapped bytes",
		Allow: []string{"pkg/fem/sparse"}, Deny: noHTTP},
	{Package: "pkg/fem/internal/par", Why: "the engine's worker pool needs the standard library only",
		Deny: noHTTP},
	{Package: "pkg/fem/sparse", Why: "sparse algebra knows nothing of structures",
		Allow: []string{"pkg/fem/sparse/kernel", "pkg/fem/internal/par"}, External: []string{gonum}, Deny: noHTTP,
		// bench_test.go (external package) orders and factors grid-n matrices.
		TestAllow: []string{"pkg/fem/gridn"}},
	{Package: "pkg/fem/dof", Why: "degree-of-freedom numbering needs geometry and sparse patterns only",
		Allow: []string{"pkg/fem/geom", "pkg/fem/sparse"}, Deny: noHTTP},
	{Package: "pkg/fem/linsys", Why: "linear systems are sparse algebra",
		Allow: []string{"pkg/fem/sparse"}, External: []string{gonum}, Deny: noHTTP},
	{Package: "pkg/fem/eigen", Why: "the eigensolver sees an operator and vectors, no element or model",
		Allow: []string{"pkg/fem/internal/par"}, External: []string{gonum}, Deny: noHTTP},
	{Package: "pkg/fem/domain", Why: "the domain assembles elements over numbered degrees of freedom",
		Allow: []string{"pkg/fem/geom", "pkg/fem/transform", "pkg/fem/element", "pkg/fem/shell", "pkg/fem/dof", "pkg/fem/sparse", "pkg/fem/internal/par"},
		Deny:  noHTTP,
		// subdivide_test.go checks refined models against static analyses;
		// plate_test.go builds plate test meshes.
		TestAllow: []string{"pkg/fem/static", "pkg/fem/internal/platecase"}},
	{Package: "pkg/fem/static", Why: "the solver may use the engine, but not the ccx harness nor the test and benchmark models",
		Allow: []string{femTree}, External: []string{gonum},
		Deny:      []string{"net/http/...", "pkg/fem/static/ccx", "pkg/fem/gridn", "pkg/fem/internal/platecase", "pkg/fem/internal/navier"},
		TestAllow: []string{"pkg/fem/gridn", "pkg/fem/internal/platecase", "pkg/fem/internal/navier", "pkg/fem/internal/memprobe"}},
	{Package: "pkg/fem/nonlinear", Why: "the non-linear static analysis (small and large displacements) runs on the engine's parts, not the test and benchmark models",
		Allow: []string{"pkg/fem/domain", "pkg/fem/dof", "pkg/fem/element", "pkg/fem/geom", "pkg/fem/linsys", "pkg/fem/sparse", "pkg/fem/transform"},
		Deny:  noHTTP,
		// The tests compare small-load results with the linear analysis.
		TestAllow: []string{"pkg/fem/static"}},
	{Package: "pkg/fem/static/ccx", Why: "the CalculiX cross-check (tag ccx) drives the engine only",
		Allow: []string{femTree}, Deny: noHTTP},
	{Package: "pkg/fem/gridn", Why: "the benchmark generator builds models from the engine only",
		Allow: []string{femTree}, Deny: noHTTP},
	{Package: "pkg/fem/sparse/race", Why: "the CHOLMOD race (tag cholmod, cgo) drives the solver on the benchmark models only",
		Deny: noHTTP, TestAllow: []string{"pkg/fem/sparse", "pkg/fem/sparse/kernel", "pkg/fem/gridn"}},
}
