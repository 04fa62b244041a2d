package main

import (
	"strings"
	"testing"
)

func TestAgentLoopShowsBothPresentations(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"== planner (native)\nwire tools: get_temperature, to_fahrenheit\nprompt:\n(no Code Mode sections)\n",
		"== coder (code)\nwire tools: run_code\nprompt:\n`run_code` is the only tool you can call directly (a direct call to any other tool fails)",
		"  /** Get the current temperature of a city. */\n  get_temperature(args: { /** City name. */ city: string }): Promise<{ city: string; celsius: number; observed: string }>;\n",
		"== coder's model calls get_temperature directly\n" +
			"Error: unknown tool \"get_temperature\": only `run_code` is callable directly \u2014 call `get_temperature` from inside a `run_code` program instead\n",
		"== coder's model calls run_code\nOslo 39.2F, Lisbon 66.2F, Cairo 87.8F\n",
		"== planner's model calls get_temperature directly\n{\n  \"city\": \"Oslo\",\n  \"celsius\": 4,\n  \"observed\": \"12:00\"\n}\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks:\n%s\n--- output:\n%s", want, text)
		}
	}
}
