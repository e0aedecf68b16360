package tui_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/uptide/uptide/tui"
)

// Full-screen golden files: the app runs in a real Bubble Tea program
// (teatest) at a fixed size with the ASCII color profile pinned, driven by
// keys; the final frame is compared with testdata/<test>.golden.
// `go test ./tui -run Golden -update` rewrites them.

type screenplay struct {
	width, height int
	// steps alternate keys with the text to wait for before going on.
	steps []step
	// before runs once the program started (to script the fake engine).
	before func(f *fakeEngine)
}

type step struct {
	keys    []string
	waitFor string
}

func runGolden(t *testing.T, sp screenplay) {
	t.Helper()
	golden.RequireEqual(t, []byte(stillSpinner(play(t, sp).View())))
}

// play runs the screenplay and returns the app as it ended.
func play(t *testing.T, sp screenplay) *tui.App {
	t.Helper()
	f := newFake(demoLive(t))
	if sp.before != nil {
		sp.before(f)
	}
	app := tui.New(tui.Options{Engine: f, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	t.Cleanup(func() { app.Wait(10 * time.Second) })
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(sp.width, sp.height))
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	}
	wait(" behind, ")
	for _, st := range sp.steps {
		for _, k := range st.keys {
			tm.Send(keyMsg(k))
		}
		if st.waitFor != "" {
			wait(st.waitFor)
		}
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*tui.App)
}

// stillSpinner draws every spinner frame as the first: the frame on screen
// depends on how long the test ran, which a golden must not.
func stillSpinner(view string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", r) {
			return '⠋'
		}
		return r
	}, view)
}

func TestGoldenHomeGroupsExpanded(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30, steps: []step{{keys: []string{"m"}, waitFor: "@aws-sdk/client-s3"}}})
}

func TestGoldenDetailsWithCompanionsAndPlan(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30,
		before: func(f *fakeEngine) { f.reply("react") <- checkReply{res: breaking(2)} },
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "Release group"},
			{keys: []string{"enter"}, waitFor: "TS2554"},
		}})
}

// The workspaces importing react without declaring it, under the check
// summary of its details.
func TestGoldenDetailsUndeclaredImporters(t *testing.T) {
	res := breaking(2)
	res.Importers = []string{
		"packages/ui · imports react without declaring it (resolved via @acme/web)",
		"(root) · imports react without declaring it: skipped, its import of react does not resolve to a copy this check covers",
	}
	runGolden(t, screenplay{width: 100, height: 30,
		before: func(f *fakeEngine) { f.reply("react") <- checkReply{res: res} },
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "resolved via @acme/web"},
		}})
}

func TestGoldenTargetPicker(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30, steps: []step{{keys: []string{"t"}, waitFor: "PUBLISHED"}}})
}

func TestGoldenNarrow80x24(t *testing.T) {
	runGolden(t, screenplay{width: 80, height: 24, steps: []step{{keys: []string{"down", "space"}, waitFor: "1 selected"}}})
}

// A running check shows its phase and progress in the row and the status
// line while the rest of the planner stays usable; the fake engine holds
// it at "compiling target 1/3" and never answers.
func TestGoldenCheckInProgress(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30, steps: []step{{keys: []string{"c"}, waitFor: "compiling target 1/3"}}})
}

// At 80×24 with a check running, the title line still says how far behind
// the repository is, and the help line still says how to get help and
// quit: what is cut is in between (issue 25 item 7).
func TestNarrowFrameKeepsCountsAndWayOut(t *testing.T) {
	final := play(t, screenplay{width: 80, height: 24, steps: []step{{keys: []string{"c"}, waitFor: "compiling target"}}})
	lines := strings.Split(final.View(), "\n")
	if title := lines[0]; !strings.Contains(title, "15 behind, 12 major") || !strings.Contains(title, "checking 0/1") {
		t.Errorf("title line %q: want the counts and the check beside them", title)
	}
	if help := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(help, "? help • q quit") {
		t.Errorf("help line %q: want it to end with ? help • q quit", help)
	}
}

// An expanded rule shows, under each site its transform takes, the diff
// the rule edit will make there: check's dry run, as fix will commit it.
func TestGoldenPlanPreview(t *testing.T) {
	res := breaking(2)
	res.Rules[0].Fix = map[string]string{"f1": "rule", "f2": "rule"}
	res.Rules[0].Findings[0].ID, res.Rules[0].Findings[1].ID = "f1", "f2"
	res.Rules[0].Previews = map[string]string{
		"f1": "@@ packages/web/src/App.tsx:12 @@\n-  const input = useRef<HTMLInputElement>();\n+  const input = useRef<HTMLInputElement | undefined>(undefined);\n",
		"f2": "@@ packages/web/src/Form.tsx:4 @@\n-  const timer = useRef();\n+  const timer = useRef(undefined);\n",
	}
	runGolden(t, screenplay{width: 100, height: 40,
		before: func(f *fakeEngine) { f.reply("react") <- checkReply{res: res} },
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "Release group"},
			{keys: []string{"enter"}, waitFor: "useRef(undefined)"},
		}})
}
