package cli

import (
	"context"
	"strings"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
)

// thisBuild is the running uptide's build (a test's binary has no
// stamps: its tests set one).
var thisBuild = publish.ThisBuild

// tokenVars hold the GitHub token --pr uses; the run's installs and tests
// never see them.
var tokenVars = []string{"GH_TOKEN=", "GITHUB_TOKEN="}

// withoutTokens is env without the GitHub token's variables.
func withoutTokens(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, tokenVars[0]) && !strings.HasPrefix(kv, tokenVars[1]) {
			out = append(out, kv)
		}
	}
	return out
}

// publishRun is --pr after the run: the gate, the push, the pull request;
// what happened joins the report and its stored record (never the token:
// secrets masks it everywhere).
func publishRun(ctx context.Context, o *FixOptions, rep *fix.Report, secrets *redact.Secrets) {
	rep.Publish = publish.Open(ctx, rep, publish.Options{Dir: o.Cwd, Env: o.Env, Build: thisBuild(), Secrets: secrets})
	if rep.Checkout.RunFile == "" {
		return
	}
	secrets.Walk(rep)
	if err := rep.StoreAgain(); err != nil {
		rep.NotRun = append(rep.NotRun, "storing what --pr did in the run: "+err.Error())
	}
}
