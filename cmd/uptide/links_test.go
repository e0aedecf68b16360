package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The binary links the registry server the demo serves with, never a test
// kit: the fault injector (internal/testkit/testregistry), the scripted
// model, the pinned-compiler fetchers stay in test code.
func TestBinaryLinksNoTestKit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	const server = "github.com/uptide/uptide/internal/registryserver"
	found := false
	for _, d := range deps {
		if d == server {
			found = true
		}
		if d == "github.com/uptide/uptide/internal/testkit" || strings.HasPrefix(d, "github.com/uptide/uptide/internal/testkit/") {
			t.Errorf("the binary links the test kit %s", d)
		}
	}
	if !found {
		t.Errorf("%s is not among the binary's %d dependencies: the demo serves with it", server, len(deps))
	}
}
