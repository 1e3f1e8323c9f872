/**
 * The HTML report of {@code evaluate --report}, {@code dedupe --report} and {@code run --report}:
 * one self-contained file (styles inline, plots as inline SVG images, no script, a
 * Content-Security-Policy that forbids every load but its own style and images) that shows the
 * duplicates themselves: sampled pairs per similarity band side by side with a word diff, the
 * missed pairs and false alerts of an evaluation, the largest clusters of a run.
 *
 * <p>{@link dev.neardup.tools.report.Report} is the model of what to show, filled by {@link
 * dev.neardup.tools.report.EvaluationReport} and {@link dev.neardup.tools.report.OutputReport} in
 * one pass over the outputs with bounded samples ({@link dev.neardup.tools.report.PairSample}), and
 * one more over the input for the sampled pages only ({@link
 * dev.neardup.tools.report.SampledPages}); {@link dev.neardup.tools.report.HtmlReport} renders it,
 * every piece of page text through one escape function.
 */
package dev.neardup.tools.report;
