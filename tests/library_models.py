"""Models that libraries ship, used as they are: torchvision's classification models, timm's and
transformers' models built from small configurations (their own classes, shrunk by their own
options, so that a test runs in about a second). No weights are downloaded: every model starts
from its library's random initialisation.

Each entry, like those of real_models.py, makes ``(model, run)``: ``run()`` runs a fresh forward
pass and returns a scalar loss. The three libraries come from requirements-models.txt, which
`make test` and `make compat` install beside torch (naming torch, so that pip keeps its build).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Callable

import torch
import torch.nn.functional as F
from real_models import Case

CASES: dict[str, Callable[[], Case]] = {}


def torchvision_models() -> types.ModuleType:
    """torchvision.models, also beside a torch build that torchvision was not built for.

    PyPI's torchvision is built against PyPI's torch. Beside another build of the same release
    (PyTorch's CPU build, which `make test`'s environment has) its compiled operator library does
    not load, and `import torchvision` fails while it registers those operators ("operator
    torchvision::nms does not exist"). The classification models are plain Python and call none
    of them (nms and roi_align serve detection). So when the plain import fails, an empty package
    takes torchvision's name, with torchvision's folder as its path: its submodules then import
    from that folder without running torchvision/__init__.py, which is what registers them.
    """
    try:
        return importlib.import_module("torchvision.models")
    except RuntimeError as error:
        if "torchvision::" not in str(error):
            raise
    for name in [name for name in sys.modules if name.split(".")[0] == "torchvision"]:
        del sys.modules[name]  # the half-imported package the failed import left behind
    spec = importlib.util.find_spec("torchvision")
    package = types.ModuleType("torchvision")
    package.__spec__, package.__file__ = spec, spec.origin
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["torchvision"] = package
    return importlib.import_module("torchvision.models")


def image_classifier(make: Callable[[], torch.nn.Module], size: int = 32) -> Callable[[], Case]:
    """A classifier of a batch of two small images, trained with cross-entropy."""

    def case() -> Case:
        model = make()
        images, labels = torch.randn(2, 3, size, size), torch.tensor([3, 1])
        return model, lambda: F.cross_entropy(model(images), labels)

    return case


def add_torchvision() -> None:
    models = torchvision_models()
    tiny_vit = dict(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=16)
    tiny_swin = dict(patch_size=[4, 4], embed_dim=8, depths=[2, 2], num_heads=[2, 2])
    classifiers = {
        "resnet18": lambda: models.resnet18(num_classes=10),
        "mobilenet_v2": lambda: models.mobilenet_v2(num_classes=10, width_mult=0.25),
        "mobilenet_v3_small": lambda: models.mobilenet_v3_small(num_classes=10),
        "shufflenet_v2_x0_5": lambda: models.shufflenet_v2_x0_5(num_classes=10),
        "efficientnet_b0": lambda: models.efficientnet_b0(num_classes=10),
        "squeezenet1_1": lambda: models.squeezenet1_1(num_classes=10),
        "mnasnet0_5": lambda: models.mnasnet0_5(num_classes=10),
        "regnet_x_400mf": lambda: models.regnet_x_400mf(num_classes=10),
        "densenet (small growth)": lambda: models.DenseNet(8, (2, 2), 8, num_classes=10),
        "convnext (small)": lambda: models.convnext.ConvNeXt(
            [models.convnext.CNBlockConfig(8, 16, 1), models.convnext.CNBlockConfig(16, None, 1)],
            num_classes=10,
        ),
        "swin (small)": lambda: models.swin_transformer.SwinTransformer(
            **tiny_swin, window_size=[2, 2], num_classes=10
        ),
        "vision transformer (small)": lambda: models.VisionTransformer(
            **tiny_vit, mlp_dim=32, num_classes=10
        ),
    }
    for name, make in classifiers.items():
        CASES[f"torchvision {name}"] = image_classifier(make)


def add_timm() -> None:
    import timm

    small = {
        "resnet10t": dict(num_classes=10),
        "vit_tiny_patch16_224": dict(img_size=32, patch_size=8, depth=2, num_classes=10),
        "convnext_atto": dict(num_classes=10),
        "efficientnet_b0": dict(num_classes=10),
    }
    for name, options in small.items():
        CASES[f"timm {name}"] = image_classifier(
            lambda name=name, options=options: timm.create_model(name, **options)
        )
    CASES["timm MLP-Mixer (small)"] = image_classifier(
        lambda: timm.models.mlp_mixer.MlpMixer(
            num_classes=10, img_size=32, patch_size=8, num_blocks=2, embed_dim=16
        )
    )


def language_model(config_class: str, model_class: str, **config) -> Callable[[], Case]:
    """A transformers language model from a small configuration, its loss from its labels."""

    def case() -> Case:
        import transformers

        settings = dict(vocab_size=64, hidden_size=16, num_hidden_layers=2)
        settings.update(num_attention_heads=2, intermediate_size=32, **config)
        model = getattr(transformers, model_class)(getattr(transformers, config_class)(**settings))
        tokens = torch.randint(0, 64, (2, 6))
        return model, lambda: model(input_ids=tokens, labels=tokens).loss

    return case


def transformers_cases() -> dict[str, Callable[[], Case]]:
    import transformers

    # The small configurations keep some of the pretrained models' token ids, which transformers
    # warns of at every model; the warnings say nothing about the helpers.
    transformers.logging.set_verbosity_error()

    def gpt2() -> Case:
        config = transformers.GPT2Config(
            vocab_size=64, n_positions=16, n_embd=16, n_layer=2, n_head=2,
            bos_token_id=0, eos_token_id=0,
        )  # fmt: skip
        model = transformers.GPT2LMHeadModel(config)
        tokens = torch.randint(0, 64, (2, 6))
        return model, lambda: model(input_ids=tokens, labels=tokens).loss

    def translation(model_class: str, config: transformers.PretrainedConfig) -> Case:
        # An encoder-decoder model: a source sentence in, the target's tokens as labels.
        model = getattr(transformers, model_class)(config)
        source, target = torch.randint(4, 64, (2, 6)), torch.randint(4, 64, (2, 4))
        return model, lambda: model(input_ids=source, labels=target).loss

    def t5() -> Case:
        config = transformers.T5Config(
            vocab_size=64, d_model=16, d_kv=8, d_ff=32, num_layers=2, num_heads=2,
            decoder_start_token_id=0, pad_token_id=0,
        )  # fmt: skip
        return translation("T5ForConditionalGeneration", config)

    def bart() -> Case:
        config = transformers.BartConfig(
            vocab_size=64, d_model=16, encoder_layers=1, decoder_layers=1,
            encoder_attention_heads=2, decoder_attention_heads=2,
            encoder_ffn_dim=32, decoder_ffn_dim=32, max_position_embeddings=16,
        )  # fmt: skip
        return translation("BartForConditionalGeneration", config)

    def vit() -> Case:
        config = transformers.ViTConfig(
            image_size=16, patch_size=8, hidden_size=16, num_hidden_layers=2,
            num_attention_heads=2, intermediate_size=32, num_labels=3,
        )  # fmt: skip
        model = transformers.ViTForImageClassification(config)
        images, labels = torch.randn(2, 3, 16, 16), torch.tensor([0, 2])
        return model, lambda: model(pixel_values=images, labels=labels).loss

    def whisper() -> Case:
        config = transformers.WhisperConfig(
            vocab_size=64, num_mel_bins=8, d_model=16, encoder_layers=1, decoder_layers=1,
            encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
            decoder_ffn_dim=32, max_source_positions=8, max_target_positions=16,
            decoder_start_token_id=1, pad_token_id=0,
        )  # fmt: skip
        model = transformers.WhisperForConditionalGeneration(config)
        sound, text = torch.randn(2, 8, 16), torch.randint(2, 64, (2, 4))
        return model, lambda: model(input_features=sound, labels=text).loss

    def clip() -> Case:
        text = dict(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=1)
        vision = dict(image_size=16, patch_size=8, hidden_size=16, intermediate_size=32)
        config = transformers.CLIPConfig(
            text_config=text
            | dict(
                num_attention_heads=2, max_position_embeddings=8, bos_token_id=0, eos_token_id=1
            ),
            vision_config=vision | dict(num_hidden_layers=1, num_attention_heads=2),
            projection_dim=8,
        )
        model = transformers.CLIPModel(config)
        tokens, images = torch.randint(0, 64, (2, 5)), torch.randn(2, 3, 16, 16)
        return model, lambda: model(input_ids=tokens, pixel_values=images, return_loss=True).loss

    return {
        "transformers GPT-2": gpt2,
        "transformers Llama": language_model(
            "LlamaConfig", "LlamaForCausalLM", num_key_value_heads=1
        ),
        "transformers Mistral": language_model(
            "MistralConfig", "MistralForCausalLM", num_key_value_heads=1, sliding_window=4
        ),
        "transformers Qwen2": language_model(
            "Qwen2Config", "Qwen2ForCausalLM", num_key_value_heads=1
        ),
        "transformers BERT (masked LM)": language_model("BertConfig", "BertForMaskedLM"),
        "transformers T5": t5,
        "transformers BART": bart,
        "transformers ViT": vit,
        "transformers Whisper": whisper,
        "transformers CLIP": clip,
    }


def add_transformers() -> None:
    CASES.update(transformers_cases())


add_torchvision()
add_timm()
add_transformers()
