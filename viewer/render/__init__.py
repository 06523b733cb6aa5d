"""Pages on screen: transform, layout, tiles, the renderer, highlights, the view."""
