package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fix --assist with an --llm-cmd provider, end to end: what the provider
// prints reaches the report and the stored run masked of every secret
// Uptide knows, and a reply past the cap is a clear error.

// commandProvider writes an executable script for --llm-cmd.
func commandProvider(t *testing.T, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "provider.sh")
	if err := os.WriteFile(file, []byte("#!/bin/sh\ncat >/dev/null\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return file
}

// runCommandAssist runs fix --assist with provider on the zod tutorial's
// upgrade (one site the pack gives the assisted fixer) and returns the
// report, the result and the stored run's bytes.
func runCommandAssist(t *testing.T, fe fixEnv, dir, provider string) (assistReport, result, string) {
	t.Helper()
	args := append(append([]string{"fix"}, zodTarget...), "--assist", "--llm-cmd", provider, "--json", "--verbose")
	r := run(t, fe.env, dir, args...)
	var rep assistReport
	decode(t, r, &rep)
	if rep.Checkout.RunFile == "" {
		t.Fatalf("no stored run (exit %d, status %s)\n%s", r.code, rep.Status, r.stderr)
	}
	stored, err := os.ReadFile(rep.Checkout.RunFile)
	if err != nil {
		t.Fatal(err)
	}
	return rep, r, string(stored)
}

// A provider failing with its key and the registry's token in its words:
// both are masked everywhere, and the registry's token never reached its
// environment (it had no use for it).
func TestFixAssistCommandMasksSecrets(t *testing.T) {
	const (
		providerKey   = "sk-e2e-provider-key-42"
		registryToken = "npm_e2e_registry_token_7f3a"
	)
	fe := newFixEnv(t)
	dir := packApp(t, fe, "zod-tutorial")
	// From here the registry takes only the user's .npmrc token.
	host := strings.TrimPrefix(strings.TrimSuffix(fe.reg.URL(), "/"), "http:")
	if err := os.WriteFile(filepath.Join(fe.home, ".npmrc"), []byte(host+"/:_authToken="+registryToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fe.reg.RequireToken(registryToken)
	fe.extra = append(append([]string{}, fe.extra...), "MY_LLM_API_KEY="+providerKey, "NPM_TOKEN="+registryToken, "ANTHROPIC_API_KEY=")
	provider := commandProvider(t, `echo "auth failed with key $MY_LLM_API_KEY; env token [$NPM_TOKEN]; rc $(cat "$HOME/.npmrc")" >&2
exit 1
`)
	rep, r, stored := runCommandAssist(t, fe, dir, provider)
	if rep.Assist == nil || rep.Assist.Calls != 1 || rep.Assist.Accepted != 0 {
		t.Fatalf("assist report %+v\n%s", rep.Assist, r.stderr)
	}
	for what, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "the stored run": stored} {
		if strings.Contains(text, providerKey) || strings.Contains(text, registryToken) {
			t.Errorf("a secret reached %s:\n%s", what, text)
		}
	}
	for _, want := range []string{"auth failed with key [redacted]", "env token []", "/:_authToken=[redacted]"} {
		if !strings.Contains(rep.Assist.Note, want) {
			t.Errorf("the note lacks %q: %s", want, rep.Assist.Note)
		}
	}
}

// A reply past the 8 MB cap stops the provider with a clear error; the
// site stays the user's.
func TestFixAssistCommandReplyIsCapped(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "zod-tutorial")
	fe.extra = append(append([]string{}, fe.extra...), "ANTHROPIC_API_KEY=")
	provider := commandProvider(t, `printf '{"text":"'
yes x | tr -d '\n' | head -c 209715200
printf '"}'
`)
	rep, r, _ := runCommandAssist(t, fe, dir, provider)
	if r.code != 1 || rep.Assist == nil || rep.Assist.Accepted != 0 ||
		!strings.Contains(rep.Assist.Note, "its reply is larger than 8 MB, the limit of one reply") {
		t.Fatalf("exit %d, assist report %+v\n%s", r.code, rep.Assist, r.stderr)
	}
}
