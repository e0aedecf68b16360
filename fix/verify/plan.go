package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/proc"
)

// TestRun is one test command verification runs.
type TestRun struct {
	Workspaces []string `json:"workspaces"` // slash paths it answers for ("." root)
	Dir        string   `json:"dir"`        // slash path relative to root where it runs
	Command    []string `json:"command"`    // argv as run
	Scope      string   `json:"scope"`      // "test script of packages/api", "vitest related over 2 files (vitest.config.ts)", "root test script"
	Runner     string   `json:"runner"`     // vitest, jest, node, script

	// Pretest is the workspace's pretest script, run as a command of its
	// own before Command (never through the manager's lifecycle).
	Pretest []string `json:"pretest,omitempty"`
	// Config is the runner configuration the run uses (slash, relative to
	// root), empty for a script.
	Config string `json:"config,omitempty"`
	// Generated is the vitest configuration RunTests writes for this run
	// and deletes after it (slash, relative to root): it imports Config,
	// excludes Exclude and removes DropSetup. Empty when the repository's
	// own configuration runs as it is.
	Generated string   `json:"generated,omitempty"`
	Exclude   []string `json:"exclude,omitempty"`
	DropSetup []string `json:"dropSetup,omitempty"`
}

// ServiceSkip is a test file or setup not run because it needs a service.
// File is "test/db.integration.test.ts"; Needs is "integration test (by
// name)" or "global setup: a database (imports pg)".
type ServiceSkip struct {
	File  string `json:"file"`
	Needs string `json:"needs"`
}

// TestPlan is what verification runs, and what it does not and why.
type TestPlan struct {
	Runs    []TestRun     `json:"runs"`
	NoTests []string      `json:"noTests,omitempty"` // workspaces nothing covers
	Skipped []ServiceSkip `json:"skipped,omitempty"` // files not run because they need services (default)
	NotRun  []string      `json:"notRun,omitempty"`  // whole runs not started and why ("jest config packages/api/jest.config.js has a global setup that connects to a database: nothing runs without --with-services")
}

// PlanTests chooses the runs for the affected workspaces (slash paths) given the edited and
// affected files (slash, relative to root), exactly one detection per workspace: its own test
// script; else the nearest vitest or jest config covering it (its own or an ancestor's) run in
// related mode over the files (or the workspace dir when none); else the root test script.
// Workspaces sharing a config share one run. Reads files only, runs nothing.
func PlanTests(root string, repo *model.Repository, workspaces, files []string, withServices bool) (*TestPlan, error) {
	p := &planner{root: root, withServices: withServices, files: files, plan: &TestPlan{}, byKey: map[string]*pending{}}
	known := map[string]bool{".": true}
	if repo != nil {
		for _, w := range repo.Workspaces {
			known[w.Path] = true
		}
	}
	ws := uniqSorted(workspaces)
	for _, w := range ws {
		if w == "" || path.IsAbs(w) || w == ".." || strings.HasPrefix(w, "../") {
			return nil, fmt.Errorf("workspace %q is not a slash path inside %s", w, root)
		}
		known[w] = true
	}
	p.known = known
	rootPkg, _, err := readPkg(root)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if err := p.detect(w, rootPkg); err != nil {
			return nil, err
		}
	}
	p.finish()
	return p.plan, nil
}

type pending struct {
	kind   string // script, root, config
	ws     []string
	script string // script text
	pre    string // pretest text
	dir    string
	config *runnerConfig
}

type planner struct {
	root         string
	withServices bool
	files        []string
	known        map[string]bool
	plan         *TestPlan
	order        []string
	byKey        map[string]*pending
}

func (p *planner) add(key string, w string, make func() *pending) {
	if pr, ok := p.byKey[key]; ok {
		pr.ws = append(pr.ws, w)
		return
	}
	pr := make()
	pr.ws = []string{w}
	p.byKey[key] = pr
	p.order = append(p.order, key)
}

func (p *planner) detect(w string, rootPkg pkgJSON) error {
	abs := filepath.Join(p.root, filepath.FromSlash(w))
	pkg, _, err := readPkg(abs)
	if err != nil {
		return err
	}
	if s := pkg.testScript(); s != "" {
		kind := "script"
		if w == "." {
			kind = "root"
		}
		p.add(kind+":"+w, w, func() *pending {
			return &pending{kind: kind, script: s, pre: pkg.Scripts["pretest"], dir: w}
		})
		return nil
	}
	c, err := nearestConfig(p.root, w)
	if err != nil {
		return err
	}
	if c != nil {
		p.add("config:"+c.File, w, func() *pending { return &pending{kind: "config", dir: c.Dir, config: c} })
		return nil
	}
	if s := rootPkg.testScript(); s != "" {
		p.add("root:.", w, func() *pending {
			return &pending{kind: "root", script: s, pre: rootPkg.Scripts["pretest"], dir: "."}
		})
		return nil
	}
	p.plan.NoTests = append(p.plan.NoTests, w)
	return nil
}

// owner is the deepest workspace that holds the file.
func (p *planner) owner(file string) string {
	for d := path.Dir(file); ; d = path.Dir(d) {
		if p.known[d] {
			return d
		}
		if d == "." || d == "/" {
			return "."
		}
	}
}

func (p *planner) finish() {
	p.coveredByRoot()
	skipped := map[string]string{}
	for _, key := range p.order {
		pr := p.byKey[key]
		sort.Strings(pr.ws)
		run, notRun, skips := p.build(pr)
		if notRun != "" {
			p.plan.NotRun = append(p.plan.NotRun, notRun)
		}
		if run != nil {
			p.plan.Runs = append(p.plan.Runs, *run)
		}
		for _, s := range skips {
			skipped[s.File] = s.Needs
		}
	}
	for f, n := range skipped {
		p.plan.Skipped = append(p.plan.Skipped, ServiceSkip{File: f, Needs: n})
	}
	sort.Slice(p.plan.Skipped, func(i, j int) bool { return p.plan.Skipped[i].File < p.plan.Skipped[j].File })
	sort.Strings(p.plan.NoTests)
	sort.Strings(p.plan.NotRun)
}

// coveredByRoot folds a related run of the root's own jest or vitest
// config into the root test script's run when that script runs the same
// runner over everything (no file, project or name filter): the script
// runs those tests already, and a second run of the runner would repeat
// them (a workspace without a test script of its own in a repository
// whose root script is "vitest").
func (p *planner) coveredByRoot() {
	root := p.byKey["root:."]
	if root == nil {
		return
	}
	runner := scriptRunner(root.script)
	if !runsEverything(root.script, runner) {
		return
	}
	kept := p.order[:0]
	for _, key := range p.order {
		pr := p.byKey[key]
		if pr.kind == "config" && pr.config.Dir == "." && pr.config.Runner == runner {
			root.ws = append(root.ws, pr.ws...)
			delete(p.byKey, key)
			continue
		}
		kept = append(kept, key)
	}
	p.order = kept
}

// unfilteringFlags are the jest and vitest flags that change how tests
// run or report, never which run.
var unfilteringFlags = map[string]bool{"--run": true, "--coverage": true, "--no-coverage": true, "--verbose": true, "--forceExit": true,
	"--passWithNoTests": true, "--silent": true, "--ci": true, "--runInBand": true, "-i": true, "--detectOpenHandles": true,
	"--colors": true, "--color": true, "--no-color": true, "--reporter": true, "--reporters": true, "--maxWorkers": true}

// runsEverything: the script's last command is runner ("vitest",
// "vitest run", "jest --coverage") with nothing that narrows which tests
// run; anything else (a path, a project, a name pattern, a flag not
// known to leave the tests alone) is taken to narrow them.
func runsEverything(script, runner string) bool {
	if runner != "vitest" && runner != "jest" {
		return false
	}
	fields := strings.Fields(lastCommand(script))
	at := -1
	for i, f := range fields {
		if f == runner {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	for _, f := range fields[at+1:] {
		name, _, _ := strings.Cut(f, "=")
		if !(runner == "vitest" && f == "run") && !unfilteringFlags[name] {
			return false
		}
	}
	return true
}

// scanDirs are the directories whose tests a run may start.
func scanDirs(pr *pending) []string {
	if pr.kind == "root" {
		return []string{"."}
	}
	return pr.ws
}

func (p *planner) build(pr *pending) (*TestRun, string, []ServiceSkip) {
	switch pr.kind {
	case "script", "root":
		return p.buildScript(pr)
	}
	return p.buildConfig(pr, p.filesOf(pr))
}

func (p *planner) buildScript(pr *pending) (*TestRun, string, []ServiceSkip) {
	run := &TestRun{Workspaces: pr.ws, Dir: pr.dir, Command: []string{"sh", "-c", pr.script}, Runner: scriptRunner(pr.script)}
	if pr.kind == "root" {
		run.Scope = "root test script"
	} else {
		run.Scope = "test script of " + pr.dir
	}
	if pr.pre != "" {
		run.Pretest = []string{"sh", "-c", pr.pre}
	}
	if p.withServices {
		return run, "", nil
	}
	var skips []ServiceSkip
	var why []string
	mocks := newMocked()
	if run.Runner == "vitest" || run.Runner == "jest" {
		if c, err := nearestConfig(p.root, pr.dir); err == nil && c != nil {
			mocks = setupMocks(p.root, c)
			if s := c.serviceSetups(p.root); len(s) > 0 {
				for _, x := range s {
					skips = append(skips, x.skip())
				}
				why = append(why, fmt.Sprintf("its %s config %s has a %s: %s", c.Runner, c.File, s[0].Kind, s[0].Need.what))
			}
		}
	}
	tests := serviceTests(p.root, scanDirs(pr), mocks)
	if len(tests) > 0 {
		skips = append(skips, tests...)
		// The files that need services are left out of the script's own
		// runner; the rest of its tests run.
		if len(why) == 0 {
			if script, ok := withoutFiles(pr.script, run.Runner, pr.dir, tests); ok {
				run.Command = []string{"sh", "-c", script}
				return run, "", skips
			}
		}
		why = append(why, fmt.Sprintf("%s services (%s), which its script is not one jest or vitest command to leave out of",
			plural(len(tests), "test file needs", "test files need"), fileList(tests)))
	}
	if len(why) == 0 {
		return run, "", nil
	}
	return nil, fmt.Sprintf("%s runs its tests itself, and %s: nothing runs without --with-services", run.Scope, strings.Join(why, "; ")), skips
}

// withoutFiles is script with the arguments that make its jest or vitest
// leave out the test files skip (slash, relative to the root; the script
// runs in dir): jest's --testPathIgnorePatterns (the default /node_modules/
// kept), vitest's --exclude. It answers only for a script whose last
// command is that runner, where arguments appended to the script reach it
// ("jest", "jest --coverage", "tsc -b && vitest run"); false otherwise.
func withoutFiles(script, runner, dir string, skip []ServiceSkip) (string, bool) {
	script = strings.TrimRight(script, " \t\n;")
	last := lastCommand(script)
	if strings.HasSuffix(script, "&") || strings.HasSuffix(script, "|") || (runner != "jest" && runner != "vitest") || scriptRunner(last) != runner || strings.ContainsAny(last, "`()<>\\") || strings.Contains(last, "$(") || hasComment(last) {
		return "", false
	}
	out := script
	for _, a := range excludeArgs(runner, dir, skip) {
		out += " " + proc.ShellQuote(a)
	}
	return out, true
}

// excludeArgs are the arguments that make runner, run in dir, leave out
// the test files skip (slash, relative to the root): jest's
// --testPathIgnorePatterns (the default /node_modules/ kept), vitest's
// --exclude. A file outside dir is none of its.
func excludeArgs(runner, dir string, skip []ServiceSkip) []string {
	var args []string
	if runner == "jest" {
		args = append(args, "--testPathIgnorePatterns=/node_modules/")
	}
	for _, t := range skip {
		switch rel := relTo(dir, t.File); {
		case rel == "":
		case runner == "jest":
			args = append(args, "--testPathIgnorePatterns="+regexpQuote(rel))
		default:
			args = append(args, "--exclude="+rel)
		}
	}
	return args
}

// hasComment: the command ends in a shell comment (a # starting a word
// outside quotes), which would swallow arguments appended to it.
func hasComment(command string) bool {
	found := false
	unquoted(command, func(i int) {
		found = found || command[i] == '#' && (i == 0 || command[i-1] == ' ' || command[i-1] == '\t')
	})
	return found
}

// lastCommand is the last simple command of a shell script: the text after
// its last &&, ||, ;, | or newline outside quotes.
func lastCommand(script string) string {
	script = strings.TrimRight(script, " \t\n;&|")
	start := 0
	unquoted(script, func(i int) {
		if strings.IndexByte(";|&\n", script[i]) >= 0 {
			start = i + 1
		}
	})
	return strings.TrimSpace(script[start:])
}

// unquoted calls f with the index of each byte of s outside single or
// double quotes (the quotes themselves excluded).
func unquoted(s string, f func(i int)) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		default:
			f(i)
		}
	}
}

// filesOf are the files of the run's workspaces, relative to the run's
// directory.
func (p *planner) filesOf(pr *pending) []string {
	in := map[string]bool{}
	for _, w := range pr.ws {
		in[w] = true
	}
	var out []string
	for _, f := range uniqSorted(p.files) {
		if !in[p.owner(f)] {
			continue
		}
		rel := relTo(pr.dir, f)
		if rel == "" {
			continue
		}
		out = append(out, rel)
	}
	return out
}

func (p *planner) buildConfig(pr *pending, files []string) (*TestRun, string, []ServiceSkip) {
	c := pr.config
	run := &TestRun{Workspaces: pr.ws, Dir: c.Dir, Runner: c.Runner, Config: c.File}
	var flags []string
	var skips []ServiceSkip
	if !p.withServices {
		setups := c.serviceSetups(p.root)
		tests := serviceTests(p.root, pr.ws, setupMocks(p.root, c))
		for _, x := range setups {
			skips = append(skips, x.skip())
		}
		skips = append(skips, tests...)
		kind := c.Runner + " config"
		if c.Workspace {
			kind = "vitest workspace file"
		}
		if len(setups) > 0 && (c.Runner == "jest" || c.Workspace) {
			return nil, fmt.Sprintf("%s %s has a %s (%s) that connects to %s, which cannot be taken out: nothing runs without --with-services",
				kind, c.File, setups[0].Kind, setups[0].File, setups[0].Need.what), skips
		}
		switch {
		case len(setups) == 0 && len(tests) == 0:
		case c.Runner == "jest" || c.Workspace:
			flags = append(flags, excludeArgs(c.Runner, c.Dir, tests)...)
		default:
			for _, t := range tests {
				run.Exclude = append(run.Exclude, t.File)
			}
			for _, s := range setups {
				run.DropSetup = append(run.DropSetup, s.File)
			}
			run.Generated = path.Join(c.Dir, generatedName(c.File, run.Exclude, run.DropSetup))
			flags = append(flags, "--config", path.Base(run.Generated))
		}
	}
	var targets []string
	if len(files) > 0 {
		targets = files
		run.Scope = fmt.Sprintf("%s related over %s (%s)", c.Runner, plural(len(files), "file", "files"), c.File)
	} else {
		whole := false
		for _, w := range pr.ws {
			rel := relTo(c.Dir, w)
			if rel == "." {
				whole = true
			}
			targets = append(targets, rel)
		}
		if whole {
			targets = nil
			run.Scope = fmt.Sprintf("%s over all its tests (%s)", c.Runner, c.File)
		} else {
			run.Scope = fmt.Sprintf("%s over %s (%s)", c.Runner, strings.Join(pr.ws, ", "), c.File)
		}
	}
	switch c.Runner {
	case "vitest":
		if len(files) > 0 {
			run.Command = append([]string{"vitest", "related", "--run"}, flags...)
		} else {
			run.Command = append([]string{"vitest", "run"}, flags...)
		}
		run.Command = append(run.Command, targets...)
	case "jest":
		run.Command = []string{"jest", "--ci"}
		if !strings.HasSuffix(c.File, "package.json") {
			run.Command = append(run.Command, "--config", path.Base(c.File))
		}
		run.Command = append(run.Command, flags...)
		if len(files) > 0 {
			run.Command = append(run.Command, "--findRelatedTests")
		}
		run.Command = append(run.Command, targets...)
	}
	return run, "", skips
}

// generatedName names the generated vitest configuration after what it
// does, so equal plans name it alike and two runs cannot share one.
func generatedName(config string, exclude, drop []string) string {
	h := sha256.New()
	fmt.Fprintln(h, config)
	for _, e := range exclude {
		fmt.Fprintln(h, "x", e)
	}
	for _, d := range drop {
		fmt.Fprintln(h, "d", d)
	}
	return "vitest.uptide-" + hex.EncodeToString(h.Sum(nil))[:10] + ".config.mjs"
}

// scriptRunner names the runner a test script starts, when its text says.
func scriptRunner(script string) string {
	fields := strings.Fields(script)
	for i, f := range fields {
		switch {
		case f == "vitest":
			return "vitest"
		case f == "jest":
			return "jest"
		case f == "node" && i+1 < len(fields) && strings.HasPrefix(fields[i+1], "--test"):
			return "node"
		}
	}
	return "script"
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// relTo is the slash path of file relative to dir, both relative to the
// root; "" when file is not inside dir.
func relTo(dir, file string) string {
	if dir == "." {
		return file
	}
	if file == dir {
		return "."
	}
	if strings.HasPrefix(file, dir+"/") {
		return strings.TrimPrefix(file, dir+"/")
	}
	return ""
}

func uniqSorted(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		s = path.Clean(strings.TrimPrefix(s, "./"))
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// fileList names up to three files and counts the rest.
func fileList(s []ServiceSkip) string {
	var names []string
	for i, x := range s {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(s)-3))
			break
		}
		names = append(names, x.File)
	}
	return strings.Join(names, ", ")
}
