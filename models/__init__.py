"""Model registry and resolution; fetching (download, verify, export, self-check), pack and
unpack; ONNX export, training and bundled artifacts."""
