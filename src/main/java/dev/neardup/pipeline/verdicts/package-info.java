/**
 * The verdicts: {@link dev.neardup.pipeline.verdicts.VerdictOperator} (keyed by document version)
 * collects a document's announcements and bucket reports and decides when its verdict is due,
 * {@link dev.neardup.pipeline.verdicts.VerdictAssembly} what it emits (alerts, verdicts, cluster
 * merges); the verdicts being assembled wait on the heap, written to raw keyed state at checkpoints
 * ({@link dev.neardup.pipeline.verdicts.WaitingVerdicts}), or beyond it in keyed state. The type of
 * those verdicts and the readers of its older layouts stay in {@code pipeline}, since savepoints
 * name them ({@link dev.neardup.pipeline.PendingVerdict}). Design:
 * docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline.verdicts;
