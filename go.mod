module github.com/runcode-dev/runcode

go 1.26.8

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/text v0.14.0
)
