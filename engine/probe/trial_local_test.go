package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/registry"
)

func TestTrialLocal(t *testing.T) {
	repo := os.Getenv("PROBE_TRIAL_REPO")
	if repo == "" {
		t.Skip()
	}
	cfg, err := registry.LoadConfig(repo, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	f := &RegistryFetcher{Client: registry.New(registry.Options{Config: cfg})}
	defer f.Close()
	for _, pair := range strings.Split(os.Getenv("PROBE_TRIAL_PAIRS"), " ") {
		p := strings.Split(pair, ":")
		start := time.Now()
		res, err := Run(context.Background(), Request{Name: p[0], RepoRoot: repo, Installed: Copy{Version: p[1]}, Target: Copy{Version: p[2]}, Fetch: f.Fetch, NoCache: os.Getenv("PROBE_TRIAL_NOCACHE") != ""})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("=== %s %s → %s: %s %s (%s) node %s: %s\n", p[0], p[1], p[2], res.Status, res.Reason, time.Since(start).Round(time.Millisecond), res.Node.Version, res.Node.Why)
		fmt.Printf("    installed: %s | target: %s\n", res.Installed.Placement, res.Target.Placement)
		for _, c := range res.Changes {
			b, _ := json.Marshal(c)
			fmt.Println("   ", string(b))
		}
	}
}
