package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
	"github.com/gusset/gusset/pkg/sgtext"
)

// textFormat says what the text file routes read and write; the README
// says the same at more length.
var textFormat = fmt.Sprintf("The file is the desktop program's text file format: a first line SPACE GASS Text File - Version N; "+
	"a UNITS line (LENGTH, SECTION, STRENGTH, DENSITY, TEMP, FORCE, MOMENT, MASS, ACC, TRANS, STRESS and, an extension, PRESSURE; a category it leaves out is in the new-job unit, "+
	"but plate pressures follow STRESS when PRESSURE is not given); "+
	"groups each started by a title line of which the first six characters count (%s), in any order, a later line for the same key overriding an earlier one; "+
	"comma-separated items, text in double quotes (\"\" for a quote, || for a line break), # comment lines, blank lines anywhere, "+
	"a line ending in & continued on the next. Limits: a line at most %d characters, a continued set at most %d. "+
	"Library sections and materials may be named without properties (libraries %s). "+
	"Extensions of this service: member types U (pulley) and K (truss), six more spring stiffnesses after SRzB on a member line, "+
	"AngleType and Transposed after Shapes on a section line, notes as a third item of TITLES, and the groups CATEGORIES (Cat,Title,Notes), "+
	"MEMBMOMENTS, MEMBPRESTRESS, PLATEPRESSURES, MEMBTHERMAL, PLATETHERMAL, PRESCRIBED DISPLACEMENTS, LUMPED MASSES, LOAD CASE GROUPS, VERTICAL AXIS "+
	"and the moving-load groups MOVINGSETTINGS, LOADEDELEMENTS, VEHICLES, LANEPRESSURES, TRAVELPATHS and SCENARIOS (a record's line, then its lists on lines starting with the item *). "+
	"Not read: generation items (Gen fields other than 0 are a 400), section shape lines (skipped with a warning; a library section takes its shape from the library), "+
	"the record of the last moving-load generation, plate cuts and strips.",
	strings.Join(sgtext.GroupTitles(), ", "), sgtext.MaxLineChars, sgtext.MaxContinuedChars,
	"sections "+strings.Join(library.SectionLibraries(), ", ")+"; materials "+strings.Join(library.MaterialLibraries(), ", "))

func (a *API) registerTextRoutes() {
	const tag = "Job"
	a.add(route{method: "POST", path: "/job/import/txt", tag: tag, summary: "Create a job from an uploaded text file",
		desc: "multipart/form-data with a file part named file holding a text file. The job opens as new (isNew true, no file path) in the file's units, " +
			"the numbers converted to SI by the unit of each field. Nothing is half-imported: a file that is refused leaves no job open. " +
			"Every malformed line is a 400 whose message names the line number and the item (a wrong or missing header names line 1; a line past the limit is refused " +
			"as soon as the reader passes the limit, without reading the rest). A group the format knows but this service has no place for " +
			"(steel and concrete design, dynamic settings, groups and others) is skipped with one warning in state.warnings; " +
			"an unknown group title is a 400 naming the line. Load cases that loads or combinations use but TITLES does not name are created with the title Load case N, " +
			"load categories likewise (Category N). The model as a whole then meets the rules every job file's rows meet (each record's own rules, references, numbers at most 1e20 in SI; " +
			"a break is a 400 naming the collection and the row) and the workspace's count limits (403). " +
			"409 while a job is open. An upload past the body limit (MAX_BODY_BYTES) is a 413. " + textFormat,
		fileParts: []string{"file"}, responses: map[int]any{200: JobWithState{}}, errors: errsTemplate, handler: a.importText})
	a.add(route{method: "GET", path: "/job/export/txt", tag: tag, summary: "Download the open job as a text file",
		desc: "Extension: the open job's model as a text file in the job's units (the UNITS line says which), numbers to 15 significant digits, " +
			"lines within the format's limits (longer lines continued with &); POST /job/import/txt reads it back to the same model. " +
			"Collections the format has no place for (the record of the last moving-load generation, plate cuts and strips) are left out and named in a # comment line near the top. " +
			"Analysis results and analysis settings are not part of the file. " + textFormat,
		responses: map[int]any{200: nil}, rawResponse: "text/plain", errors: errsJob, handler: a.exportText})
}

// importText reads the uploaded text file; its size is bounded by the
// body limit.
func (a *API) importText(c *fiber.Ctx) error {
	if !strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		return model.E(model.KindUnsupportedMedia, "send the text file as multipart/form-data with a file part named file")
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return model.Invalid("file", "the multipart body has no file part named file: %v", err)
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("read uploaded text file: %w", err)
	}
	defer f.Close()
	o, err := a.sess.ImportText(c.UserContext(), workspace(c), f, fh.Filename)
	if err != nil {
		return err
	}
	return c.JSON(withState(o))
}

func (a *API) exportText(c *fiber.Ctx) error {
	var buf bytes.Buffer
	if err := a.sess.ExportText(c.UserContext(), workspace(c), &buf); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="job.txt"`)
	return c.Status(http.StatusOK).Send(buf.Bytes())
}
