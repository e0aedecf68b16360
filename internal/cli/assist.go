package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
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
// --llm-cmd, --llm-url or ANTHROPIC_API_KEY no call is ever made.
func (l *LLMFlags) provider(env []string) (assist.Provider, error) {
	p, err := assist.NewProvider(assist.Config{URL: l.URL, Cmd: l.Cmd, Model: l.Model, MaxCost: l.MaxCost, Env: env})
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
func autoAssist(p assist.Provider, maxCost float64, progress func(phase, line string)) func(context.Context, fix.AssistInput) (fix.AssistOutcome, error) {
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
				progress("assist", line)
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
			out.Patches = append(out.Patches, fix.Patch{Finding: it.Site.ID, Rule: it.Site.RuleTitle, File: it.Site.File,
				Line: it.Site.Line, Diff: it.Diff, Explanation: it.Explanation})
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
			parts = append(parts, fmt.Sprintf("%s:%d not valid after %d attempts (%s)", it.Site.File, it.Site.Line, it.Attempts, it.Reason))
		case assist.Manual:
			parts = append(parts, fmt.Sprintf("%s:%d manual (%s)", it.Site.File, it.Site.Line, it.Reason))
		}
	}
	return strings.Join(parts, "; ")
}

// queueHook is the planner's Live.NewQueue: the review screen's queue
// over the configured provider, nil without one (the screen then says
// every site is manual).
func queueHook(p assist.Provider, maxCost float64) func(context.Context, fix.AssistInput) (review.Source, int, error) {
	if p == nil {
		return nil
	}
	return func(ctx context.Context, in fix.AssistInput) (review.Source, int, error) {
		return review.FromQueue(newQueue(ctx, p, maxCost, in)), 0, nil
	}
}
