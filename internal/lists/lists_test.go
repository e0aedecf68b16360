package lists_test

import (
	"slices"
	"testing"

	"github.com/uptide/uptide/internal/lists"
)

func TestAppendUniqueKeepsFirstOrder(t *testing.T) {
	var got []string
	for _, s := range []string{"b", "a", "b", "c", "a"} {
		got = lists.AppendUnique(got, s)
	}
	if want := []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
