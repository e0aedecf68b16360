package check

import "github.com/uptide/uptide/internal/lists"

// appendUnique adds s to list unless it holds it: lists keep their first order.
var appendUnique = lists.AppendUnique[string]
