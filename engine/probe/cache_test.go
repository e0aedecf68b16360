package probe

import (
	"context"
	"reflect"
	"testing"
)

// A second probe of the same versions on the same Node reads the cache:
// no load, no fetch, the same changes. Another integrity for the version
// is another key.
func TestResultsAreCachedPerVersionIntegrityAndNode(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "tintkit@4.1.2")
	req := e.request(t, repo, "tintkit", "4.1.2", "5.3.0")
	first, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	asked := e.reg.RequestsFor("tintkit")
	second, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if e.reg.RequestsFor("tintkit") != asked {
		t.Error("a cached probe asked the registry for the target again")
	}
	if second.Installed.Placement != "from the runtime cache" || second.Target.Placement != "from the runtime cache" {
		t.Errorf("placements %q / %q, want both from the cache", second.Installed.Placement, second.Target.Placement)
	}
	if !reflect.DeepEqual(first.Changes, second.Changes) || len(first.Changes) == 0 {
		t.Errorf("cached changes differ:\n%v\n%v", first.Changes, second.Changes)
	}

	req.Target.Integrity = "sha512-another"
	third, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if third.Target.Placement == "from the runtime cache" || e.reg.RequestsFor("tintkit") == asked {
		t.Error("another integrity of the version was served from the cache")
	}
	req.NoCache = true
	fourth, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if fourth.Installed.Placement == "from the runtime cache" {
		t.Error("NoCache read the cache")
	}
}
