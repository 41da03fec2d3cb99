// Package render makes every text Eos posts, as an adapters.Doc or the lines of one: the
// preview and the full plan, the run's progress and result, why, locks, drift answers and
// digests, the words about the approval rules and verdicts. It works from plain data (store
// records, executor types, small structs of its own such as Judgement and WhyFacts) and never
// from the engine: package bot gathers the facts, calls render and posts the result, and the
// status page (bot/web) shows the same texts. It decides nothing and does no I/O.
package render
