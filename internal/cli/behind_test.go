package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// list's header counts with view.Behind, the function the planner's title
// counts with, on the demo repository's report (issue 25 item 7).
func TestListHeaderCountsWithView(t *testing.T) {
	out, stderr, code := runCLI(t, "demo", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var env struct{ Data model.DiscoverReport }
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	behind, majors := view.Behind(env.Data.Rows)
	if behind == 0 || majors == 0 || behind == majors {
		t.Fatalf("the demo is %d behind, %d major: it no longer tells the counts apart", behind, majors)
	}
	text, stderr, code := runCLI(t, "demo", "--ci")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, _, _ := strings.Cut(text, "\n")
	if want := fmt.Sprintf("· %d behind, %d major", behind, majors); !strings.HasSuffix(header, want) {
		t.Errorf("header %q; want it to end %q", header, want)
	}
}
