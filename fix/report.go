package fix

import (
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/verify"
)

// The statuses of a run (model.FixStatus says what each means).
const (
	StatusVerified = model.FixVerified
	StatusFailed   = model.FixFailed
	StatusNotRun   = model.FixNotRun
)

// Report is what one fix run did and found.
type Report struct {
	Package string          `json:"package"`
	From    string          `json:"from,omitempty"`
	To      string          `json:"to,omitempty"`
	Branch  string          `json:"branch,omitempty"`
	Status  model.FixStatus `json:"status"`
	// Reason says why the run stopped or failed, in one line.
	Reason string `json:"reason,omitempty"`
	Risk   Risk   `json:"risk"`
	// Moves are the packages the upgrade moves: the package, its release
	// group, its companions.
	Moves   []Move        `json:"moves"`
	Install *Install      `json:"install,omitempty"`
	Commits []Commit      `json:"commits"`
	Patches []PatchResult `json:"patches"`
	Types   TypesReport   `json:"types"`
	Tests   TestsReport   `json:"tests"`
	Style   StyleReport   `json:"style"`
	Sites   []Site        `json:"sitesLeft"`
	// Rules is what the migration pack's rules edited (absent when no pack
	// covers the upgrade or its plan had no site by rule).
	Rules *RulesReport `json:"rules,omitempty"`
	// Decisions are the migration pack's review items for this run: the
	// notes of the rules its sites fall under and the pack's own (stripe:
	// the API changelog between the two pinned versions).
	Decisions []string      `json:"decisions"`
	Assist    *AssistReport `json:"assist,omitempty"`
	// Services is what --with-services runs and where it connects
	// (credentials masked); absent without the flag.
	Services *verify.Services `json:"services,omitempty"`
	NotRun   []string         `json:"notRun"`
	Clone    CloneReport      `json:"clone"`
	Checkout CheckoutReport   `json:"checkout"`
	// Publish is what --pr did (absent without it).
	Publish *Publish `json:"publish,omitempty"`
	// Steps are a batch's upgrades (fix a b c), one commit each, in the
	// order they were committed; absent when one package is fixed.
	Steps []BatchStep `json:"steps,omitempty"`
	// BrokeAt is the step a batch's failed verification was bisected to;
	// absent when the batch verified (or is one package).
	BrokeAt *BrokeAt `json:"brokeAt,omitempty"`
	// Verified is the branch uptide verify verified and its base; absent
	// in fix's report.
	Verified *VerifiedBranch `json:"verified,omitempty"`

	// runID names the run's own record (runs/<run-id>.json).
	runID string
}

// VerifiedBranch is what uptide verify verified: the branch's commit
// against its base, and where the commit came from.
type VerifiedBranch struct {
	Branch string `json:"branch"`
	Sha    string `json:"sha"`
	// Base is the commit compiled for the baseline: the merge-base of the
	// branch and BaseRef (--base, else the default branch).
	Base    string `json:"base"`
	BaseRef string `json:"baseRef"`
	// Clone, when set, is the kept clone of an earlier fix run whose
	// commits on the branch the checkout could not receive (the branch is
	// checked out there): those are what was verified.
	Clone string `json:"clone,omitempty"`
	// Changed are the files the branch changes against Base, slash
	// paths relative to the repository root.
	Changed []string `json:"changed"`
	// Added are the commits verify made on top of the branch (the
	// formatter's changes): Sha is the last of them, what was verified.
	Added []Commit `json:"added,omitempty"`
}

// BatchStep is one upgrade of a batch and its commit.
type BatchStep struct {
	Package string `json:"package"`
	From    string `json:"from"`
	To      string `json:"to"`
	Moves   []Move `json:"moves"`
	Commit  string `json:"commit"`
}

// BrokeAt is the first step of a batch whose commit does not verify: the
// steps before it do (the branch ends at the last of them), it does not.
type BrokeAt struct {
	Step    int    `json:"step"` // 1-based, into Steps
	Package string `json:"package"`
	From    string `json:"from"`
	To      string `json:"to"`
	Commit  string `json:"commit"`
	// NewErrors are the compiler's new errors at the step's commit
	// against the baseline; FailingTests the test runs failing there.
	NewErrors    []model.Diagnostic `json:"newErrors"`
	FailingTests []string           `json:"failingTests"`
	// Good are the commits of the steps before it, which verified.
	Good []string `json:"good"`
	// Probes are the commits bisection verified, in the order it did.
	Probes []Probe `json:"probes"`
	// Whole is the clone's branch holding every step, the broken ones too.
	Whole string `json:"whole"`
}

// Probe is one verification of bisection.
type Probe struct {
	Step   int    `json:"step"`
	Commit string `json:"commit"`
	Broken bool   `json:"broken"`
}

// The statuses of a --pr: the pull request opened, the gate refused it,
// or pushing or GitHub failed.
const (
	PublishOpened  = "opened"
	PublishBlocked = "blocked"
	PublishFailed  = "failed"
)

// PublishPushed is verify --push's: the verified commit pushed.
const PublishPushed = "pushed"

// Publish is what --pr did: the pull request it opened, or why none; or
// what verify --push did: the commit pushed to Remote's Branch, or why not.
type Publish struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	URL    string `json:"url,omitempty"`
	Remote string `json:"remote,omitempty"`
	Branch string `json:"branch,omitempty"`
	Sha    string `json:"sha,omitempty"`
}

// Record is the run as it is stored (run.json).
func (r *Report) Record() ([]byte, error) { return marshalRun(r) }

// StoreAgain writes the report over every record the run stored: the one
// RunFile names and, when that is run.json, the run's own
// runs/<run-id>.json beside it. What happens after the run (what --pr did)
// then reads the same in both.
func (r *Report) StoreAgain() error {
	if r.Checkout.RunFile == "" {
		return nil
	}
	data, err := r.Record()
	if err != nil {
		return err
	}
	files := []string{r.Checkout.RunFile}
	if dir, base := filepath.Split(r.Checkout.RunFile); base == "run.json" && r.runID != "" {
		files = append(files, filepath.Join(dir, "runs", r.runID+".json"))
	}
	for _, f := range files {
		if err := isolate.WriteRecord(f, data); err != nil {
			return err
		}
	}
	return nil
}

// BesideRecord is a file stored beside the run record runFile: head
// beside run.json (the run behind the branch), <run-id><ext> beside a
// run's own record runs/<run-id>.json.
func BesideRecord(runFile, head, ext string) string {
	dir, base := filepath.Split(runFile)
	if base == "run.json" {
		return filepath.Join(dir, head)
	}
	return filepath.Join(dir, strings.TrimSuffix(base, ".json")+ext)
}

// Move is one package moved, and why it moves.
type Move struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"`
	To   string `json:"to"`
	Why  string `json:"why"`
}

// Install is the package manager's part.
type Install struct {
	Manager string `json:"manager"`
	Version string `json:"version"`
	// Binary is the program that ran: the manager on PATH, or the script
	// of the registry's package of it (from the tool cache); BinaryWhy
	// says why it is not the one on PATH, when it is not.
	Binary    string           `json:"binary"`
	BinaryWhy string           `json:"binaryWhy,omitempty"`
	Lockfile  string           `json:"lockfile"`
	Manifests []string         `json:"manifests"`
	Commands  []string         `json:"commands"`
	Moved     []managers.Moved `json:"moved"`
	// Normalized are the lockfile entries the manager rewrites on its own,
	// from the untouched manifests (committed before the upgrade, and not
	// counted against it by the scope guard).
	Normalized []string `json:"normalized"`
}

// Risk is the run's risk level and its reasons.
type Risk struct {
	Level model.RiskLevel `json:"level"`
	Why   []string        `json:"why"`
}

// Commit is one commit the run made on the branch.
type Commit struct {
	Sha     string `json:"sha"`
	Subject string `json:"subject"`
}

// PatchResult is one accepted patch: applied in its own commit, or
// rejected with the reason (its site stays manual).
type PatchResult struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Finding string `json:"finding,omitempty"`
	Applied bool   `json:"applied"`
	Reason  string `json:"reason,omitempty"`
}

// TypesReport is the fresh compile after the upgrade against the baseline.
type TypesReport struct {
	Status   model.AnalysisStatus `json:"status"` // analyzed, skipped, not-analyzed
	Reason   string               `json:"reason,omitempty"`
	Compiler string               `json:"compiler,omitempty"`
	Projects []string             `json:"projects"`
	Files    int                  `json:"files"`
	// Baseline counts the errors the repository had before the upgrade.
	Baseline int `json:"baseline"`
	// New are the errors the upgraded branch has and the baseline does not
	// (multisets on file, code and message), sorted by file and line.
	New     []model.Diagnostic `json:"new"`
	Untyped []string           `json:"untyped,omitempty"`
}

// TestsReport is what ran, what did not, and why.
type TestsReport struct {
	Results []verify.TestResult  `json:"results"`
	NoTests []string             `json:"noTests"`
	Skipped []verify.ServiceSkip `json:"skipped"`
	NotRun  []string             `json:"notRun"`
}

// StyleReport is the repository's own formatter and linter on the edited
// files.
type StyleReport struct {
	Formatter string `json:"formatter,omitempty"`
	Linter    string `json:"linter,omitempty"`
	// Formatted are the files the formatter changed (their own commit).
	Formatted []string `json:"formatted"`
	// NewFailures are lint failures the edited files did not have before.
	NewFailures map[string][]string `json:"newFailures"`
}

// Site is a place left for a person: a line with new errors no rule or
// patch fixed, or a breaking finding the compiler cannot see.
type Site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Finding string `json:"finding,omitempty"`
	// Errors are the new errors the site's edit fixes: the ones at its
	// line, or under its root cause (empty for a finding no compiler sees).
	Errors []model.Diagnostic `json:"errors"`
}

// CloneReport says where the private clone is and why it was kept, or
// that it was removed.
type CloneReport struct {
	// Dir is the run directory; Repo the repository root inside the
	// clone's work tree.
	Dir     string `json:"dir,omitempty"`
	Repo    string `json:"repo,omitempty"`
	Kept    bool   `json:"kept"`
	Why     string `json:"why,omitempty"`
	Removed bool   `json:"removed"`
}

// CheckoutReport is what the user's checkout gained, and whether anything
// else in it changed during the run.
type CheckoutReport struct {
	Changed []string `json:"changed"`
	// Branch is the ref the checkout gained ("" when it gained none, and
	// BranchWhy says why).
	Branch    string `json:"branch,omitempty"`
	Sha       string `json:"sha,omitempty"`
	Created   bool   `json:"created,omitempty"`
	BranchWhy string `json:"branchWhy,omitempty"`
	// Fetch is the git command that brings the commits from the kept clone
	// into the checkout as a new branch, when the branch was not moved.
	Fetch string `json:"fetch,omitempty"`
	// RunFile is this run's stored record: .git/uptide/<branch>/run.json
	// when the branch is at its commits, else runs/<run-id>.json beside it.
	RunFile string `json:"runFile,omitempty"`
}

// ExitCode is 0 verified, 1 verification failed or sites left, 2 not run.
func (r *Report) ExitCode() int {
	switch r.Status {
	case StatusVerified:
		return 0
	case StatusFailed:
		return 1
	}
	return 2
}

// BranchNotMoved says why the checkout gained no branch and how to take
// the commits from the kept clone: the same lines in the CLI's report and
// the TUI's.
func (c CheckoutReport) BranchNotMoved() []string {
	if c.Branch != "" || c.BranchWhy == "" {
		return nil
	}
	out := []string{"Branch  " + c.BranchWhy}
	if c.Fetch != "" {
		// The command on a line of its own, so it copies whole.
		out = append(out, "        to take them as a new branch, run in your checkout:", "        "+c.Fetch)
	}
	return out
}
