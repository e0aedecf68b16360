//go:build !unix

package isolate

func checkPrivate(root string) error { return nil }
