package proc

import "testing"

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/uptide-runs/run-1/repo": "/tmp/uptide-runs/run-1/repo",
		"/Users/ada/My Runs/repo":     `'/Users/ada/My Runs/repo'`,
		"/tmp/it's":                   `'/tmp/it'\''s'`,
		"zod@4.1.12":                  "zod@4.1.12",
		"@scope/x@1.0":                "@scope/x@1.0",
		"":                            "''",
		"$HOME":                       "'$HOME'",
		"x*":                          "'x*'",
		"~/repo":                      "'~/repo'",
		"50%":                         "50%",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
