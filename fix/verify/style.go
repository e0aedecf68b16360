package verify

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/uptide/uptide/internal/proc"
)

// Tool is one of the repository's style tools.
type Tool struct {
	Name string   `json:"name"` // biome, prettier, eslint
	Argv []string `json:"argv"` // the installed binary, slash relative to root ("node_modules/.bin/prettier")
}

// Style is the formatter and linter the repository configures and installs;
// nil when it has none.
type Style struct {
	Formatter *Tool `json:"formatter,omitempty"`
	Linter    *Tool `json:"linter,omitempty"`
}

// styleTimeout bounds one formatter or linter run.
const styleTimeout = 5 * time.Minute

var (
	biomeConfigs    = []string{"biome.json", "biome.jsonc"}
	prettierConfigs = append(append([]string{".prettierrc"},
		names(".prettierrc", ".json", ".json5", ".yaml", ".yml", ".toml", ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")...),
		names("prettier.config", ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")...)
	eslintConfigs = append(names("eslint.config", ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts"),
		append([]string{".eslintrc"}, names(".eslintrc", ".js", ".cjs", ".json", ".yaml", ".yml")...)...)
)

// DetectStyle: a tool counts only when configured at the root (biome.json/biome.jsonc; .prettierrc*,
// prettier.config.*, "prettier" in package.json; eslint.config.*, .eslintrc*) AND installed
// (root node_modules/.bin). Biome is both formatter and linter.
//
// When biome and prettier (or eslint) are both configured, prettier formats
// (and eslint lints): a repository that keeps prettier beside biome uses
// biome for the other half.
func DetectStyle(root string) Style {
	pkg, _, _ := readPkg(root) // a broken manifest configures nothing here; PlanTests reports it
	installed := func(name string) *Tool {
		rel := "node_modules/.bin/" + name
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && !fi.IsDir() {
			return &Tool{Name: name, Argv: []string{rel}}
		}
		return nil
	}
	anyOf := func(files []string) bool {
		for _, f := range files {
			if exists(filepath.Join(root, f)) {
				return true
			}
		}
		return false
	}
	var s Style
	if anyOf(biomeConfigs) {
		if t := installed("biome"); t != nil {
			s.Formatter, s.Linter = t, t
		}
	}
	if anyOf(prettierConfigs) || present(pkg.Prettier) {
		if t := installed("prettier"); t != nil {
			s.Formatter = t
		}
	}
	if anyOf(eslintConfigs) || present(pkg.ESLint) {
		if t := installed("eslint"); t != nil {
			s.Linter = t
		}
	}
	return s
}

var handled = map[string][]string{
	"prettier": {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".jsonc", ".json5", ".css", ".scss", ".less", ".md", ".mdx", ".yaml", ".yml", ".html", ".vue", ".graphql", ".gql"},
	"biome":    {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".jsonc", ".css", ".graphql"},
	"eslint":   {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue"},
}

// usable are the files (slash, relative to root) that exist and the tool
// handles, sorted; a path leaving the root is an error.
func usable(root, tool string, files []string) ([]string, error) {
	var out []string
	for _, f := range uniqSorted(files) {
		if f == ".." || strings.HasPrefix(f, "../") || path.IsAbs(f) {
			return nil, fmt.Errorf("%s is not a path inside %s", f, root)
		}
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil || fi.IsDir() {
			continue
		}
		ext := path.Ext(f)
		for _, e := range handled[tool] {
			if e == ext {
				out = append(out, f)
				break
			}
		}
	}
	return out, nil
}

func (t *Tool) command(root string, args ...string) []string {
	argv := append([]string{}, t.Argv...)
	if len(argv) > 0 && !filepath.IsAbs(argv[0]) && strings.Contains(argv[0], "/") {
		argv[0] = filepath.Join(root, filepath.FromSlash(argv[0]))
	}
	return append(argv, args...)
}

// Format runs the formatter on files only (slash, rel root, those that exist and the tool handles); returns files it changed.
func (s Style) Format(ctx context.Context, root string, env []string, files []string) ([]string, error) {
	t := s.Formatter
	if t == nil {
		return nil, nil
	}
	todo, err := usable(root, t.Name, files)
	if err != nil || len(todo) == 0 {
		return nil, err
	}
	before := map[string][32]byte{}
	for _, f := range todo {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, fmt.Errorf("read %s before formatting: %w", f, err)
		}
		before[f] = sha256.Sum256(data)
	}
	var args []string
	switch t.Name {
	case "prettier":
		args = append([]string{"--write", "--ignore-unknown", "--log-level", "warn", "--"}, todo...)
	case "biome":
		args = append([]string{"format", "--write", "--no-errors-on-unmatched", "--colors=off"}, todo...)
	default:
		return nil, fmt.Errorf("%s is not a formatter", t.Name)
	}
	r, err := proc.Run(ctx, proc.Cmd{Argv: t.command(root, args...), Dir: root, Env: withBinPath(env, root, "."), Timeout: styleTimeout})
	if err != nil {
		return nil, fmt.Errorf("%s could not format the edited files: %w\n%s", t.Name, err, tailOf(r.Output))
	}
	if r.ExitCode != 0 {
		return nil, fmt.Errorf("%s exited %d formatting %s: fix its configuration or the files, then run again\n%s", t.Name, r.ExitCode, strings.Join(todo, ", "), tailOf(r.Output))
	}
	var changed []string
	for _, f := range todo {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, fmt.Errorf("read %s after formatting: %w", f, err)
		}
		if sha256.Sum256(data) != before[f] {
			changed = append(changed, f)
		}
	}
	return changed, nil
}

// LintRun is what the linter said about each file: file → messages ("12:3 no-unused-vars ...").
type LintRun struct {
	Failures map[string][]string `json:"failures"`
}

// Lint runs the linter on files only (slash, rel root, those that exist and
// the tool handles) and keeps its errors; warnings are not failures.
func (s Style) Lint(ctx context.Context, root string, env []string, files []string) (LintRun, error) {
	run := LintRun{Failures: map[string][]string{}}
	t := s.Linter
	if t == nil {
		return run, nil
	}
	todo, err := usable(root, t.Name, files)
	if err != nil || len(todo) == 0 {
		return run, err
	}
	switch t.Name {
	case "eslint":
		err = eslintLint(ctx, root, env, t, todo, run.Failures)
	case "biome":
		err = biomeLint(ctx, root, env, t, todo, run.Failures)
	default:
		err = fmt.Errorf("%s is not a linter", t.Name)
	}
	for f := range run.Failures {
		sort.Strings(run.Failures[f])
	}
	return run, err
}

type eslintFile struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID   *string `json:"ruleId"`
		Severity int     `json:"severity"`
		Message  string  `json:"message"`
		Line     int     `json:"line"`
		Column   int     `json:"column"`
	} `json:"messages"`
}

func eslintLint(ctx context.Context, root string, env []string, t *Tool, files []string, into map[string][]string) error {
	tmp, err := os.MkdirTemp("", "uptide-eslint-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	report := filepath.Join(tmp, "report.json")
	args := append([]string{"--format", "json", "--output-file", report, "--"}, files...)
	r, err := proc.Run(ctx, proc.Cmd{Argv: t.command(root, args...), Dir: root, Env: withBinPath(env, root, "."), Timeout: styleTimeout})
	if err != nil {
		return fmt.Errorf("eslint could not lint the edited files: %w\n%s", err, tailOf(r.Output))
	}
	if r.ExitCode != 0 && r.ExitCode != 1 {
		return fmt.Errorf("eslint exited %d (its configuration or a crash, not a lint failure): fix it and run again\n%s", r.ExitCode, tailOf(r.Output))
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return fmt.Errorf("eslint wrote no report: %w\n%s", err, tailOf(r.Output))
	}
	var results []eslintFile
	if err := json.Unmarshal(data, &results); err != nil {
		return fmt.Errorf("eslint's JSON report could not be read (%v)", err)
	}
	for _, fr := range results {
		file := normalizeFile(root, ".", fr.FilePath)
		for _, m := range fr.Messages {
			if m.Severity < 2 {
				continue
			}
			rule := "error"
			if m.RuleID != nil {
				rule = *m.RuleID
			}
			into[file] = append(into[file], fmt.Sprintf("%d:%d %s %s", m.Line, m.Column, rule, strings.TrimSpace(m.Message)))
		}
	}
	return nil
}

var (
	biomeHeadRE = regexp.MustCompile(`^(\S+?):(\d+):(\d+)\s+(\S+)`)
	biomeMsgRE  = regexp.MustCompile(`^\s*([×✖!ℹi])\s+(.+?)\s*$`)
)

func biomeLint(ctx context.Context, root string, env []string, t *Tool, files []string, into map[string][]string) error {
	args := append([]string{"lint", "--no-errors-on-unmatched", "--colors=off", "--max-diagnostics=none"}, files...)
	r, err := proc.Run(ctx, proc.Cmd{Argv: t.command(root, args...), Dir: root, Env: withBinPath(env, root, "."), Timeout: styleTimeout})
	if err != nil {
		return fmt.Errorf("biome could not lint the edited files: %w\n%s", err, tailOf(r.Output))
	}
	lines := strings.Split(stripANSI(r.Output), "\n")
	found := 0
	for i := 0; i < len(lines); i++ {
		h := biomeHeadRE.FindStringSubmatch(lines[i])
		if h == nil || !strings.HasPrefix(h[4], "lint/") {
			continue
		}
		for j := i + 1; j < len(lines) && j < i+8; j++ {
			m := biomeMsgRE.FindStringSubmatch(lines[j])
			if m == nil {
				continue
			}
			if m[1] == "×" || m[1] == "✖" {
				file := normalizeFile(root, ".", h[1])
				into[file] = append(into[file], fmt.Sprintf("%s:%s %s %s", h[2], h[3], strings.TrimPrefix(h[4], "lint/"), m[2]))
				found++
			}
			break
		}
	}
	if r.ExitCode != 0 && found == 0 {
		return fmt.Errorf("biome exited %d and reported no lint error (its configuration?): fix it and run again\n%s", r.ExitCode, tailOf(r.Output))
	}
	return nil
}

var lintPosRE = regexp.MustCompile(`^\d+:\d+\s+`)

// NewLintFailures are failures in after that before did not have on the same file (multiset on rule/message, ignoring lines).
func NewLintFailures(before, after LintRun) map[string][]string {
	out := map[string][]string{}
	for file, msgs := range after.Failures {
		had := map[string]int{}
		for _, m := range before.Failures[file] {
			had[lintPosRE.ReplaceAllString(m, "")]++
		}
		for _, m := range msgs {
			k := lintPosRE.ReplaceAllString(m, "")
			if had[k] > 0 {
				had[k]--
				continue
			}
			out[file] = append(out[file], m)
		}
	}
	return out
}
