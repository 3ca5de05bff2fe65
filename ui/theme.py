"""The app's Gradio theme: Soft with system fonts (never fetched from the network) and the few
colours changed that fail WCAG AA contrast in Soft's defaults (blue 500 labels on pale blue,
white on blue 500 buttons, grey 400 secondary text, indigo 500 links on dark), in light and dark alike."""
from __future__ import annotations

import gradio as gr

THEME = gr.themes.Soft(
    primary_hue="blue",
    text_size=gr.themes.sizes.text_lg,  # 16 px body, 14 px small text: readable across a room
    font=["system-ui", "Segoe UI", "Roboto", "Helvetica", "Arial", "sans-serif"],
    font_mono=["ui-monospace", "SFMono-Regular", "Consolas", "monospace"],
).set(
    block_title_text_color="*primary_700", block_label_text_color="*primary_700",
    body_text_color_subdued="*neutral_600",
    button_primary_background_fill="*primary_600", button_primary_background_fill_hover="*primary_700",
    button_primary_background_fill_dark="*primary_600",
    button_primary_background_fill_hover_dark="*primary_700",
    checkbox_label_background_fill_selected="*primary_600",
    checkbox_label_background_fill_selected_dark="*primary_600",
    link_text_color="*secondary_700", link_text_color_hover="*secondary_800",
    link_text_color_active="*secondary_800", link_text_color_visited="*secondary_800",
    link_text_color_dark="*secondary_300", link_text_color_hover_dark="*secondary_200",
    link_text_color_active_dark="*secondary_200", link_text_color_visited_dark="*secondary_300",
)
