package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The environment variables that turn OTLP export on; every other OTEL_* variable the SDK
// reads (headers, timeout, compression, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER, …) applies too.
const (
	otlpEndpointEnv       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	otlpTracesEndpointEnv = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
)

// tracingFlushTimeout bounds exporting the spans still buffered when run or serve ends.
const tracingFlushTimeout = 5 * time.Second

// openTracing returns a tracer provider exporting over OTLP/HTTP when the environment names an
// endpoint, and nil (no provider: nothing is traced) when it names none, or when
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn the export off. Another exporter or
// protocol (grpc) is a configuration error. Its resource is
// service.name "runcode" and the version, then what OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES say.
func openTracing(ctx context.Context, stderr io.Writer) (*sdktrace.TracerProvider, error) {
	if os.Getenv(otlpEndpointEnv) == "" && os.Getenv(otlpTracesEndpointEnv) == "" {
		return nil, nil
	}
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil
	}
	switch exporter := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exporter {
	case "", "otlp":
	case "none":
		return nil, nil
	default:
		return nil, fmt.Errorf("tracing: OTEL_TRACES_EXPORTER=%q is not supported: runcode exports traces with otlp (or none)", exporter)
	}
	for _, key := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if protocol := strings.TrimSpace(os.Getenv(key)); protocol != "" {
			if protocol != "http/protobuf" {
				return nil, fmt.Errorf("tracing: %s=%q is not supported: runcode exports over OTLP/HTTP (http/protobuf)", key, protocol)
			}
			break // the traces-specific setting wins
		}
	}
	if err := checkOTLPEnvironment(); err != nil {
		return nil, err
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "runcode"), attribute.String("service.version", version())),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	// The SDK reports failed exports to its process-wide handler (by default the standard
	// logger); this binary's are runcode's own stderr lines, JSON records under --log-format json.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { fmt.Fprintln(stderr, "runcode: tracing:", err) }))
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res)), nil
}

// flushTracing exports the spans tp still buffers and shuts it down, reporting a failure on
// stderr; nil tp does nothing.
func flushTracing(tp *sdktrace.TracerProvider, stderr io.Writer) {
	if tp == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), tracingFlushTimeout)
	defer cancel()
	if err := tp.Shutdown(ctx); err != nil {
		fmt.Fprintln(stderr, "runcode: exporting traces:", err)
	}
}

// checkOTLPEnvironment refuses the OTEL_* settings the SDK mishandles: a batch processor size or
// delay that is not a positive integer (a negative size panics in the SDK) and headers whose
// values are not URL-encoded (the SDK logs such a value, often a bearer token, to stderr). The
// errors name the variable and the header, never a header's value.
func checkOTLPEnvironment() error {
	for _, key := range []string{"OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_EXPORT_TIMEOUT"} {
		v := strings.TrimSpace(os.Getenv(key))
		if v == "" {
			continue
		}
		if n, err := strconv.Atoi(v); err != nil || n <= 0 {
			return fmt.Errorf("tracing: %s=%q must be a positive integer", key, v)
		}
	}
	for _, key := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"} {
		for i, item := range strings.Split(os.Getenv(key), ",") {
			if strings.TrimSpace(item) == "" {
				continue
			}
			name, value, ok := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if !ok || name == "" {
				return fmt.Errorf("tracing: %s: item %d is not name=value", key, i+1)
			}
			if _, err := url.PathUnescape(name); err != nil {
				return fmt.Errorf("tracing: %s: item %d: the header name is not URL-encoded correctly (%%XX)", key, i+1)
			}
			if _, err := url.PathUnescape(value); err != nil {
				return fmt.Errorf("tracing: %s: the value of header %q is not URL-encoded correctly (a %% must start %%XX)", key, name)
			}
		}
	}
	return nil
}
