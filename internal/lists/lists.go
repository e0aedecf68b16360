// Package lists holds the small list helpers the engine and fix share,
// one copy each instead of one per package.
package lists

import "sort"

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

// SortedKeys are a map's keys in order, never nil: a report prints sets
// in a stable order, and an empty one stays an empty list in JSON.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
