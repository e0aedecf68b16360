// Package lists holds the small list helpers the engine and fix share,
// one copy each instead of one per package.
package lists

// AppendUnique adds v to list unless it holds it already: a list keeps
// the order things were first seen in, which reports print.
func AppendUnique[T comparable](list []T, v T) []T {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}
