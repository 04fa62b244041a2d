// Package codemode gives a registry's tools Code Mode: a model writes one TypeScript program
// against a typed SDK of the tools, and only what the program prints or returns reaches it.
//
//	cm, err := codemode.New(reg, codemode.Options{})  // installs run_code beside reg's tools
//	reg.SetDefaultPresentation(registry.PresentCode)   // offers the model run_code
//	out, err := cm.Run(ctx, codemode.Program{Code: `return await tools.get_product({ name: "pear" })`})
//	fmt.Println(out.Text)                              // what the model reads
//
// [New] installs the reserved run_code tool ([registry.ReservedName]) and returns a [CodeMode].
// [CodeMode.Run] runs a [Program] through [registry.Registry.Execute] as a model's run_code
// call, so every policy of the registry (hooks, guards, approvals, post-processing) applies to
// the run and to each of its SDK calls, which are ordinary registry executions with the run
// as their parent. Its [Outcome] holds the text the model reads (held to
// [Options.OutputBudget]), the logs, the returned value, a typed [RunFailure] (its
// [FailureKind] is one of [FailureKinds]) and the full [registry.Result].
//
// run_code exists for a scope that presents its tools as code or both
// ([registry.Registry.SetDefaultPresentation], [registry.Scope.PresentAs]; a new registry
// presents them natively, and Run there fails with a message that says so); [CodeMode.Prompt]
// is the system-prompt text
// that teaches it the SDK ([Sections] and [RenderPrompt] for prompt assemblers). Hosts that
// route a model's calls through the registry themselves build them with [Call] and read the
// results with [OutcomeOf]. Hooks for one call travel in its context ([WithRunTrace]), in the
// way net/http/httptrace hooks one request.
//
// Without [Options.Runtime], New runs programs in process on a [jsruntime.Goja] with its
// default limits; give it a [jsruntime.NewProcessPool] for hard memory limits.
package codemode
