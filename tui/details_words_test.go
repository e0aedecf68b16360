package tui_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// The details' check summary is `uptide check`'s: the verdict as
// view.Check words it and the compile's coverage line, not a label of the
// planner's own ("✗ 5 breaking · 2 possible · 0 deprecated" where check
// says a site was not analyzed). The report is check's JSON golden.
func TestDetailsCheckSummaryHasTheCLIsWords(t *testing.T) {
	raw, err := os.ReadFile("../cmd/uptide/testdata/json-golden/check-npm-app.json")
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Data model.CheckReport `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	var pr *model.PackageReport
	for i := range env.Data.Packages {
		if env.Data.Packages[i].Title == "slugkit" {
			pr = &env.Data.Packages[i]
		}
	}
	if pr == nil || pr.Status != model.StatusPartial {
		t.Fatalf("check-npm-app.json: no partial slugkit report: %+v", pr)
	}
	f := newFake(demoLive(t))
	h := newHarness(t, f, 140, 60)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	f.reply("react") <- checkReply{res: state.ResultOf(pr)}
	h.until("the result", func() bool { return h.contains("✗ 5 breaking") })
	h.press("enter")
	h.until("the details", func() bool { return h.contains("by agent") })
	for _, want := range []string{view.Check(pr).Verdict.Text, pr.Compile.Line} {
		if !h.contains(want) {
			t.Errorf("the details lack check's %q:\n%s", want, h.view())
		}
	}
	if h.contains("0 deprecated") {
		t.Errorf("the details count in words of their own:\n%s", h.view())
	}
}
