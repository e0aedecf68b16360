package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/checkstore"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/view/html"
)

// CheckOptions are the inputs of `uptide check`.
type CheckOptions struct {
	*Globals
	Packages []string
	// Targets maps a package to the version (or dist-tag) --target names.
	Targets map[string]string
	// Group checks cross-scope groups (peer links, shared pins) together.
	Group bool
	// Details lists every site with file:line, reason and compiler message.
	Details bool
	// All shows the hidden findings too (info, additive, low confidence).
	All bool
	// NoCompile skips Signal B: nothing is confirmed.
	NoCompile bool
	// NoRuntime skips Signal C, the runtime probe: in files the repository
	// does not type-check nothing is confirmed then.
	NoRuntime bool
	// HTML is the file --html writes the report's page to.
	HTML string
}

func newCheckCmd(g *Globals) *cobra.Command {
	o := &CheckOptions{Globals: g}
	var targets []string
	cmd := &cobra.Command{
		Use:   "check <package>...",
		Short: "What upgrading a dependency breaks in this repository, confirmed by its own compiler",
		Long: "check joins the contract diff of each package's upgrade with every place the repository uses it,\n" +
			"and lets the repository's own TypeScript compiler decide what really breaks. Breaking means\n" +
			"confirmed; what nothing confirmed is listed apart as possible impact; what was not analyzed is said.\n" +
			"Exit code: 0 nothing breaking, 1 breaking findings, 2 incomplete analysis or an error.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("check needs at least one package name (uptide check zod); uptide list shows this repository's dependencies")
			}
			parsed, err := parseTargets(targets)
			if err != nil {
				return err
			}
			o.Packages, o.Targets = args, parsed
			if err := htmlWritable(o.HTML); err != nil {
				return err
			}
			return runCheck(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&targets, "target", nil, "check against `pkg@version` (or pkg@dist-tag) instead of latest; repeatable")
	f.BoolVar(&o.Group, "group", false, "also check packages linked by peer ranges or shared pins together")
	f.BoolVar(&o.Details, "details", false, "list every site: file:line, reason and compiler message")
	f.BoolVar(&o.All, "all", false, "show hidden findings too (info, additive, low confidence)")
	f.BoolVar(&o.NoCompile, "no-compile", false, "skip the compile check (nothing is confirmed then)")
	f.BoolVar(&o.NoRuntime, "no-runtime", false, "skip the runtime probe (loading each copy in a sandboxed Node); JavaScript the repository does not type-check stays unverified then")
	addHTMLFlag(f, &o.HTML)
	return cmd
}

// parseTargets reads "pkg@version" flags; scoped names keep their leading @.
func parseTargets(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, t := range flags {
		i := strings.LastIndex(t, "@")
		if i <= 0 || i == len(t)-1 {
			return nil, usageError("--target %q: write it as package@version (zod@4.1.12, @aws-sdk/client-s3@3.600.0)", t)
		}
		name, version := t[:i], t[i+1:]
		if prev, ok := out[name]; ok && prev != version {
			return nil, usageError("--target names %s twice (%s and %s)", name, prev, version)
		}
		out[name] = version
	}
	return out, nil
}

func runCheck(cmd *cobra.Command, o *CheckOptions) error {
	progress := term.NewProgress(o.Stderr, o.Term.Progress)
	timing := map[engine.Phase]time.Duration{}
	cwdArg := ""
	if f := cmd.Flags().Lookup("cwd"); f != nil && f.Changed {
		cwdArg = f.Value.String()
	}
	secrets := redact.FromEnv(o.Env)
	rep, err := engine.Check(cmd.Context(), engine.CheckOptions{
		Cwd: o.Cwd, CwdArg: cwdArg, Env: o.Env, Packages: o.Packages, Targets: o.Targets,
		Group: o.Group, Compile: !o.NoCompile, Runtime: !o.NoRuntime, Timing: timing, Secrets: secrets,
		Events: func(e engine.Event) { progress.Update(e.Finished, "%s", checkProgress(e)) },
	})
	progress.Clear()
	if err != nil {
		return err
	}
	// Compiler messages quote the repository's code, which may hold a
	// secret the environment or the .npmrc files carry.
	secrets.Walk(rep)
	if !o.NoCompile {
		// plan reads what was checked here on the same state of the files,
		// fix the whole check when it is asked the same.
		store := openCheckStore(o.Env, rep.Repository.Root)
		store.save(rep)
		store.SaveRun(checkstore.Ask{Packages: o.Packages, Targets: o.Targets, Group: o.Group, Runtime: !o.NoRuntime}, rep)
	}
	if err := writeHTML(o.HTML, func(w io.Writer) error { return html.Check(w, rep) }); err != nil {
		return err
	}
	code := checkExitCode(rep)
	if o.Verbose {
		writeTimings(o.Stderr, timing)
	}
	if o.JSON {
		env := Envelope{SchemaVersion: SchemaVersion, Command: "check", Data: rep, ExitCode: code, Warnings: checkWarnings(rep)}
		if o.Verbose {
			env.Timing = timingMillis(timing)
		}
		if err := o.writeEnvelope(env); err != nil {
			return err
		}
	} else {
		renderCheck(o.Stdout, rep, checkView{details: o.Details, all: o.All, elapsed: o.elapsed()}, palette{on: o.Term.Color}, o.Term.Width)
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}

// checkProgress is the progress line for one engine event.
func checkProgress(e engine.Event) string {
	switch e.Phase {
	case engine.PhaseRegistry:
		if e.Total > 0 {
			return fmt.Sprintf("registry %d/%d", e.Done, e.Total)
		}
		return "asking the registry"
	case engine.PhaseCompiler:
		return e.Package
	case engine.PhaseUsages:
		return "finding the usages of " + e.Package
	case engine.PhaseDiff:
		return "reading the declarations of " + e.Package
	case engine.PhaseSurface:
		return "reading the declarations of " + e.Package
	case engine.PhaseCompile:
		return fmt.Sprintf("compiling %d files against the target", e.Total)
	}
	return string(e.Phase)
}

// checkExitCode: 1 when anything breaks; else 2 when a package was not
// analyzed or its verdict is partial or unknown; else 0.
func checkExitCode(rep *model.CheckReport) int {
	breaking, incomplete := false, len(rep.Problems) > 0
	for _, p := range rep.Packages {
		switch {
		case p.Status == model.StatusNotAnalyzed:
			incomplete = true
		case p.Verdict == model.VerdictBreaking:
			breaking = true
		case p.Verdict.Incomplete():
			incomplete = true
		}
	}
	switch {
	case breaking:
		return ExitBreaking
	case incomplete:
		return ExitIncomplete
	}
	return ExitOK
}

// checkWarnings are the envelope's warnings: what makes the result partial.
func checkWarnings(rep *model.CheckReport) []string {
	var w []string
	for _, p := range rep.Problems {
		w = append(w, problemLine(p))
	}
	for _, p := range rep.Packages {
		if p.Status == model.StatusNotAnalyzed {
			w = append(w, p.Title+": not analyzed: "+p.Reason)
		}
		for _, x := range p.Warnings {
			w = append(w, p.Title+": "+x)
		}
	}
	return w
}
