package webui

import (
	"strings"
	"testing"
)

// The pages' only inline script is the viewer's import map; a page that
// gains another must have it allowed by the API's security policy, which
// hashes what InlineScripts returns.
func TestInlineScripts(t *testing.T) {
	scripts, err := InlineScripts()
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) != 1 || !strings.Contains(scripts[0], `"imports"`) {
		t.Errorf("inline scripts %q, want the viewer's import map alone", scripts)
	}
}
