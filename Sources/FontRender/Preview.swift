/// What FontRender draws, as functions of `Preview`, one kind per file: `text` (TextPreview),
/// `label` (Label), `sheet` (Sheet), `sweep` (Sweep), `compare` (Compare), the variation
/// previews (VariationPreviews) and the explanatory pictures (Pictures). Each returns an `Image`.
public enum Preview {}
