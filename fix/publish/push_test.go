package publish_test

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
)

// verify's report has no branch in the checkout (the commit is in its
// clone, pushed from there): the gate asks that of fix's runs only, and
// refuses a verify run for everything else it refuses.
func TestTheGateOfAVerifyRun(t *testing.T) {
	verified := &fix.Report{Status: fix.StatusVerified, Verified: &fix.VerifiedBranch{Branch: "renovate/zod-4", Sha: "abc"}}
	if bl := publish.Blockers(verified, publish.Build{}); len(bl) != 0 {
		t.Errorf("a verified verify run is blocked: %q", bl)
	}
	if bl := publish.Blockers(&fix.Report{Status: fix.StatusVerified}, publish.Build{}); len(bl) != 1 || !strings.Contains(bl[0], "no branch of this run") {
		t.Errorf("fix's run without a branch: %q", bl)
	}
	failed := &fix.Report{Status: fix.StatusFailed, Reason: "1 new type error", Verified: verified.Verified,
		Checkout: fix.CheckoutReport{Changed: []string{"HEAD moved"}}}
	bl := strings.Join(publish.Blockers(failed, publish.Build{Dirty: true}), "; ")
	for _, want := range []string{"did not verify: 1 new type error", "checkout changed during the run: HEAD moved", "vcs.modified"} {
		if !strings.Contains(bl, want) {
			t.Errorf("blockers %q lack %q", bl, want)
		}
	}
}
