package httpapi

import (
	"reflect"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// JobWithState is what the operations that load a job return: the job
// record and the session state.
type JobWithState struct {
	model.Job
	State model.State `json:"state"`
}

// Status is the body of GET /job/status.
type Status struct {
	Job         *model.Job       `json:"job" doc:"the job record (headings, settings, units); null when no job is open"`
	State       model.State      `json:"state"`
	Structure   StructureCounts  `json:"structure"`
	Loads       LoadCounts       `json:"loads"`
	Analysis    AnalysisFlags    `json:"analysis"`
	SteelDesign SteelDesignFlags `json:"steelDesign"`
	AccessMode  string           `json:"accessMode" doc:"ReadWrite; ReadOnly while an analysis is queued or running (model changes are refused then); NoAccess when no job is open"`
	Storage     WorkspaceStorage `json:"storage"`
}

// WorkspaceStorage is what the workspace stores against its limits.
type WorkspaceStorage struct {
	ResultBytes    int64 `json:"resultBytes" doc:"bytes of the analysis results the workspace stores (result columns and meta records)"`
	MaxResultBytes int64 `json:"maxResultBytes" doc:"the most result bytes the workspace may store (its resultBytes limit, MAX_RESULT_BYTES by default); a run whose estimated results would pass it, with the stored results of other analysis families, answers 403 LIMIT_EXCEEDED when it is started; 0 when the service sets no limits"`
}

// StructureCounts are the structure model's row counts.
type StructureCounts struct {
	Nodes           int64 `json:"nodes"`
	Members         int64 `json:"members"`
	Plates          int64 `json:"plates"`
	NodeRestraints  int64 `json:"nodeRestraints"`
	MemberOffsets   int64 `json:"memberOffsets"`
	NodeConstraints int64 `json:"nodeConstraints"`
	Sections        int64 `json:"sections"`
	Materials       int64 `json:"materials"`
}

// LoadCounts are the load model's row counts.
type LoadCounts struct {
	LoadCases               int64 `json:"loadCases"`
	LoadCaseGroups          int64 `json:"loadCaseGroups"`
	LoadCategories          int64 `json:"loadCategories"`
	CombinationLoadCases    int64 `json:"combinationLoadCases"`
	NodeLoads               int64 `json:"nodeLoads"`
	MemberConcentratedLoads int64 `json:"memberConcentratedLoads"`
	MemberDistributedLoads  int64 `json:"memberDistributedLoads"`
	MemberTorsionLoads      int64 `json:"memberTorsionLoads"`
	MemberPrestressLoads    int64 `json:"memberPrestressLoads"`
	PlateLoads              int64 `json:"plateLoads"`
	PrescribedDisplacements int64 `json:"prescribedDisplacements"`
	SelfWeightLoads         int64 `json:"selfWeightLoads"`
	ThermalLoads            int64 `json:"thermalLoads"`
	LumpedMassLoads         int64 `json:"lumpedMassLoads"`
}

// AnalysisFlags say which kinds of analysis results the job holds.
type AnalysisFlags struct {
	HasStaticResults    bool `json:"hasStaticResults"`
	HasBucklingResults  bool `json:"hasBucklingResults"`
	HasDynamicResults   bool `json:"hasDynamicResults"`
	HasSpectralResults  bool `json:"hasSpectralResults"`
	HasHarmonicResults  bool `json:"hasHarmonicResults"`
	HasTransientResults bool `json:"hasTransientResults"`
}

// set sets the flag whose JSON name is name (a family's StatusFlag); a
// family without a flag of its own sets none.
func (f *AnalysisFlags) set(name string, v bool) {
	if fd := model.DefOf(reflect.TypeFor[AnalysisFlags]()).ByName[name]; fd != nil {
		reflect.ValueOf(f).Elem().Field(fd.Index).SetBool(v)
	}
}

// SteelDesignFlags say which steel design results the job holds.
type SteelDesignFlags struct {
	HasMemberDesignResults     bool `json:"hasMemberDesignResults"`
	HasConnectionDesignResults bool `json:"hasConnectionDesignResults"`
}

// Access modes of the API (as the interface names it).
const (
	AccessReadWrite = "ReadWrite"
	AccessReadOnly  = "ReadOnly"
	// AccessNoAccess is the mode while no job is open: there is nothing
	// to read or change until one is.
	AccessNoAccess = "NoAccess"
)

// OpenRequest is the body of POST /job/open.
type OpenRequest struct {
	FilePath    string `json:"filePath" req:"true" example:"bridges/portal-frame.gsj" doc:"job file path relative to the jobs directory; .gsj is added when there is no extension"`
	ForceOption string `json:"forceOption,omitempty" enum:"None|OpenPreviousSaved|OpenUnsavedMostRecent" doc:"which file to open when a recovery file is newer than the job file"`
}

// OpenSampleRequest is the body of POST /job/open-sample.
type OpenSampleRequest struct {
	FileName string `json:"fileName" doc:"a name from GET /file/samples; case and the .gsj extension do not matter"`
}

// SaveRequest is the optional body of POST /job/save.
type SaveRequest struct {
	FilePath string `json:"filePath,omitempty" doc:"where to save, relative to the jobs directory; required for a job that was never saved"`
	// Overwrite is an extension: the spec's save replaces silently.
	Overwrite bool `json:"overwrite,omitempty" doc:"extension: true replaces a job file (or the recovery file of another session) already at filePath; without it saving onto a file that is not the open job's own is a 409. Saving the open job to its own file needs no flag"`
}

// ErrorsResponse is the body of GET /job/errors.
type ErrorsResponse struct {
	Errors []store.ErrorRecord `json:"errors"`
	Count  int                 `json:"count"`
}

// LastErrorResponse is the body of GET /job/errors/last.
type LastErrorResponse struct {
	Error    *store.ErrorRecord `json:"error"`
	HasError bool               `json:"hasError"`
}

// ServiceInfo is the body of GET /service/info.
type ServiceInfo struct {
	APIPath string `json:"apiPath"`
	Version string `json:"version"`
}

// Metadata is a resource's metadata record (as the interface names it).
type Metadata struct {
	ResourceType string          `json:"resourceType"`
	Count        *int64          `json:"count"`
	MaxID        int64           `json:"maxId" doc:"the greatest id in use; 0 when there is none, or for rows keyed by composite keys (loads)"`
	NextID       int64           `json:"nextId" doc:"the id a create without one is given: the smallest free id (the next available number), which may lie below maxId after deletes; 0 for rows keyed by composite keys"`
	Fields       []FieldMetadata `json:"fields"`
}

// FieldMetadata describes one field of a resource.
type FieldMetadata struct {
	JSONName      string         `json:"jsonName"`
	DataType      string         `json:"dataType"`
	Units         *string        `json:"units"`
	Min           *float64       `json:"min"`
	Max           *float64       `json:"max"`
	Default       any            `json:"default"`
	MaxLength     *int           `json:"maxLength"`
	Description   string         `json:"description"`
	AllowedValues []AllowedValue `json:"allowedValues"`
}

// AllowedValue is one value of an enum field.
type AllowedValue struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Health is the body of /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	// Storage is the data store's memory, in /readyz when the store
	// reports it.
	Storage *Storage `json:"storage,omitempty"`
}

// Storage is how full the data store (Redis) is. Full means writes answer
// 503 STORAGE_FULL until a workspace frees storage (closes or clears a
// job, deletes rows); /readyz still answers 200 then, since every replica
// shares the one store and a load balancer that took them all out would
// leave nobody a way to free it.
type Storage struct {
	Full      bool  `json:"full"`
	UsedBytes int64 `json:"usedBytes"`
	// MaxBytes is the store's limit; 0 when it has none.
	MaxBytes int64 `json:"maxBytes"`
}
