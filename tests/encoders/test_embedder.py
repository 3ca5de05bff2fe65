"""The bundled all-MiniLM-L6-v2 sentence embedder (used by the RadSEM rules matcher)."""
import numpy as np


def test_embeddings_are_unit_vectors_in_input_order(embedder):
    texts = ["Small left pleural effusion.", "No pneumothorax.",
             "There is a small effusion on the left side.", "The patient is rotated."]
    vectors = embedder.embed(texts)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # One at a time gives the same vectors, bit for bit (see test_onnx_runtime).
    single = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_array_equal(single, vectors)


def test_paraphrase_is_closer_than_an_unrelated_sentence(embedder):
    a, b, c = embedder.embed(["Small left pleural effusion.",
                              "There is a small effusion on the left side.",
                              "The patient is rotated."])
    assert float(a @ b) > float(a @ c) + 0.2


def test_empty_input_gives_an_empty_matrix(embedder):
    assert embedder.embed([]).shape == (0, 384)
