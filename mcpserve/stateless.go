package mcpserve

// Stateless serving: what a replica that is draining answers, so that the client (or the load
// balancer in front of the replicas) retries the request on another one.

import (
	"net/http"
	"strconv"
)

// StatelessDraining is the body of the 503 that a stateless handler (HTTPOptions.Stateless)
// answers to every request once its gate drains. The request was not read, so nothing of it
// ran: retrying it, on another replica or after Retry-After, is safe. A run_code call that
// arrived just before the drain began and was refused by the gate still gets the tool error
// ShuttingDown, which is as safe to retry.
const StatelessDraining = "Service Unavailable: this runcode server is shutting down and takes no new requests; retry the request (on another replica)"

// drainingRetryAfter is the Retry-After, in seconds, of StatelessDraining: a load balancer
// takes a draining replica out of rotation within a readiness period, about a second or more.
const drainingRetryAfter = 1

// refuseWhileDraining answers StatelessDraining when gate drains, and reports whether it did.
// The response closes the connection, so that a client or proxy that keeps connections alive
// opens its next one to a replica that is still serving.
func refuseWhileDraining(w http.ResponseWriter, gate *RunGate) bool {
	if gate == nil || !gate.Draining() {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(drainingRetryAfter))
	w.Header().Set("Connection", "close")
	http.Error(w, StatelessDraining, http.StatusServiceUnavailable)
	return true
}
