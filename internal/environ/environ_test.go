package environ

import "testing"

func TestLookup(t *testing.T) {
	e := Env{"A=1", "B=", "A=2", "C=x=y", "junk"}
	for _, c := range []struct {
		key, want string
		set       bool
	}{{"A", "2", true}, {"B", "", true}, {"C", "x=y", true}, {"D", "", false}, {"junk", "", false}} {
		if v, ok := e.Lookup(c.key); v != c.want || ok != c.set {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", c.key, v, ok, c.want, c.set)
		}
	}
	if (Env)(nil).Get("PATH") != "" {
		t.Error("an empty environment has a PATH")
	}
}
