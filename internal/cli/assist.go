package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/tui/review"
)

// LLMFlags choose the assisted fixer's provider: the same flags for
// `uptide fix --assist` and the planner, so both ask the same model.
type LLMFlags struct {
	URL, Cmd, Model string
	MaxCost         float64
}

func (l *LLMFlags) add(f *pflag.FlagSet) {
	f.StringVar(&l.URL, "llm-url", "", "assisted fixes from an OpenAI-compatible chat-completions API at `URL` (Ollama, llama.cpp server, vLLM, LM Studio; OPENAI_API_KEY is sent when set)")
	f.StringVar(&l.Cmd, "llm-cmd", "", "assisted fixes from `COMMAND`: run without a shell, the request JSON on its stdin, the reply JSON on its stdout")
	f.StringVar(&l.Model, "model", "", "the model the provider is asked for (Anthropic's default: "+assist.DefaultAnthropicModel+")")
	f.Float64Var(&l.MaxCost, "max-cost", assist.DefaultMaxCost, "the most the assisted fixes may cost per package, in `DOLLARS` (estimated from list prices)")
}

// provider is the configured provider, nil when none is: without
// --llm-cmd, --llm-url or ANTHROPIC_API_KEY no call is ever made. It masks
// secrets in its errors, and fix adds the registry's credentials to them.
func (l *LLMFlags) provider(env []string, secrets *redact.Secrets) (assist.Provider, error) {
	p, err := assist.NewProvider(assist.Config{URL: l.URL, Cmd: l.Cmd, Model: l.Model, MaxCost: l.MaxCost, Env: env, Secrets: secrets})
	if err != nil {
		return nil, usageError("%v", err)
	}
	return p, nil
}

// newQueue starts the queue of in's sites over p (nil: every site
// manual).
func newQueue(ctx context.Context, p assist.Provider, maxCost float64, in fix.AssistInput) *assist.Queue {
	var f *assist.Fixer
	if p != nil {
		f = &assist.Fixer{Provider: p, Validator: in.Validator, Read: in.Read, Budget: assist.NewBudget(maxCost)}
	}
	return assist.NewQueue(ctx, in.Sites, f)
}

// autoAssist is fix --assist's hook: the queue without a person, every
// patch that validates accepted.
func autoAssist(p assist.Provider, maxCost float64, progress func(phase model.Phase, line string)) func(context.Context, fix.AssistInput) (fix.AssistOutcome, error) {
	return func(ctx context.Context, in fix.AssistInput) (fix.AssistOutcome, error) {
		q := newQueue(ctx, p, maxCost, in)
		defer q.Close()
		out := fix.AssistOutcome{Provider: q.Provider()}
		if p == nil {
			out.Note = assist.NoProviderNote
			return out, nil
		}
		last := ""
		accepted, err := assist.AcceptValidated(ctx, q, func(s assist.Summary) {
			line := fmt.Sprintf("%s: %d accepted, %d resolved, %d not valid, %d manual, %d to go · %s · $%.2f of $%.2f",
				q.Provider(), s.Accepted, s.Resolved, s.Invalid, s.Manual, s.Pending, count(s.Calls, "call"), q.Spent(), q.Budget())
			if line != last && progress != nil {
				progress(model.PhaseAssist, line)
			}
			last = line
		})
		items := q.Items()
		s := assist.Summarize(items)
		out.Calls, out.Cost, out.Sites = s.Calls, q.Spent(), assist.Records(items)
		out.Note = assistNote(s, items)
		if err != nil {
			return out, err
		}
		for _, it := range accepted {
			out.Patches = append(out.Patches, fix.PatchOf(it))
		}
		return out, nil
	}
}

// assistNote is the report's one line on what the fixer did not accept.
func assistNote(s assist.Summary, items []assist.Item) string {
	var parts []string
	if s.Resolved > 0 {
		parts = append(parts, fmt.Sprintf("%d resolved by an accepted patch without a call", s.Resolved))
	}
	for _, it := range items {
		switch it.Status {
		case assist.Invalid:
			parts = append(parts, fmt.Sprintf("%s:%d not valid after %s (%s)", it.Site.File, it.Site.Line, count(it.Attempts, "attempt"), it.Reason))
		case assist.Manual:
			parts = append(parts, fmt.Sprintf("%s:%d manual (%s)", it.Site.File, it.Site.Line, it.Reason))
		}
	}
	return strings.Join(parts, "; ")
}

// queueHook is the planner's Live.NewQueue: the review screen's queue
// over the configured provider, nil without one (the screen then says
// every site is manual).
func queueHook(p assist.Provider, maxCost float64, cwd string, env Env) func(context.Context, fix.AssistInput) (review.Source, int, error) {
	if p == nil {
		return nil
	}
	return func(ctx context.Context, in fix.AssistInput) (review.Source, int, error) {
		file, saved, err := loadReview(env, cwd, in.Package, in.To)
		if err != nil {
			return nil, 0, err
		}
		return reviewQueue(ctx, in, p, maxCost, file, saved)
	}
}

// reviewQueue is the review screen's queue over provider, resuming the
// saved accepted set and keeping it in file after every decision.
func reviewQueue(ctx context.Context, in fix.AssistInput, p assist.Provider, budget float64, file string, saved []assist.Saved) (review.Source, int, error) {
	f := &assist.Fixer{Provider: p, Validator: in.Validator, Read: in.Read, Budget: assist.NewBudget(budget)}
	q, resumed := assist.NewQueueWith(ctx, in.Sites, f, assist.Options{Saved: saved, Persist: func(acc []assist.Item) {
		saveReview(file, in.Package, in.To, acc)
	}})
	return review.FromQueueFile(q, file), resumed, nil
}

// reviewFile is where the accepted set of pkg's upgrade to target in the
// repository at cwd is kept, in the cache env names.
func reviewFile(env Env, cwd, pkg, target string) (string, error) {
	dir, err := cache.DirOf(env, "reviews")
	if err != nil {
		return "", err
	}
	abs, _ := filepath.Abs(cwd)
	sum := sha256.Sum256([]byte(abs + "\x00" + pkg + "\x00" + target))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".json"), nil
}

func loadReview(env Env, cwd, pkg, target string) (string, []assist.Saved, error) {
	file, err := reviewFile(env, cwd, pkg, target)
	if err != nil {
		return "", nil, err
	}
	saved, err := readReview(file, pkg, target)
	if err != nil {
		return "", nil, fmt.Errorf("%w: remove it to start the review afresh", err)
	}
	return file, saved, nil
}

// readReview is the accepted set saveReview kept in file, none when there
// is no file yet. The file is a --patches file.
func readReview(file, pkg, target string) ([]assist.Saved, error) {
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	// The checks fix --patches makes on the same file.
	pf, err := fix.ReadPatches(file)
	if err != nil {
		return nil, err
	}
	if pf.Package != pkg || pf.Target != target {
		return nil, fmt.Errorf("the saved review %s is of %s → %s, not %s → %s", file, pf.Package, pf.Target, pkg, target)
	}
	var saved []assist.Saved
	for _, p := range pf.Patches {
		saved = append(saved, assist.Saved{ID: p.Finding, Diff: p.Diff, Explanation: p.Explanation})
	}
	return saved, nil
}

// saveReview writes the accepted set as the file fix --patches takes; a
// failure only loses the resume.
func saveReview(file, pkg, target string, acc []assist.Item) {
	pf := fix.PatchFile{SchemaVersion: 1, Package: pkg, Target: target, Patches: []fix.Patch{}}
	for _, it := range acc {
		pf.Patches = append(pf.Patches, fix.PatchOf(it))
	}
	data, err := json.MarshalIndent(pf, "", "  ")
	if err != nil {
		return
	}
	tmp := file + ".tmp"
	if os.WriteFile(tmp, data, 0o600) == nil {
		_ = os.Rename(tmp, file)
	}
}
