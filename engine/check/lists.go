package check

// appendUnique adds s to list unless it holds it: lists keep their first order.
func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
