"""Models to measure the helpers on, written with torch.nn only: no model library, no download.

- `GPT2`: GPT-2 small's blocks and sizes (768 wide, 12 heads, a 50,257-token vocabulary, 1,024
  positions), with as many blocks as asked (`GPT2Config.n_layer`), and its modules named as
  Hugging Face's ``GPT2LMHeadModel`` names them (``transformer.h.3.attn.c_attn``), so that a
  picture of it reads like one of the real model. The output head shares its weight with the
  token embedding, as GPT-2's does. Its attention is written out (``q @ k^T``, the causal mask,
  softmax, ``@ v``), as Hugging Face's "eager" attention is. ``nn.Linear`` stands where Hugging
  Face has its own ``Conv1D``: the same product, with the weight stored transposed.
- `TinyTransformer`: a two-block Transformer small enough for a lesson (32 wide, 2 heads), with
  every op on its own line: the query, key and value projections, the scores, the mask, the
  softmax, the residual adds.

Both map token ids (batch, sequence) to logits (batch, sequence, vocabulary); `batch` makes a
seeded batch of token ids and their next tokens for either, and `loss` the cross-entropy of the
next-token prediction. Weights are random, from a seed: the same model every run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

# --- GPT-2 -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GPT2Config:
    """GPT-2 small's sizes; only the number of blocks is usually changed."""

    n_layer: int = 12
    n_embd: int = 768
    n_head: int = 12
    vocab_size: int = 50257
    n_positions: int = 1024
    dropout: float = 0.1
    layer_norm_epsilon: float = 1e-5


class GPT2Attention(nn.Module):
    """Causal self-attention: one projection makes queries, keys and values for all heads."""

    def __init__(self, config: GPT2Config) -> None:
        super().__init__()
        self.n_head = config.n_head
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        causal = torch.tril(torch.ones(config.n_positions, config.n_positions, dtype=torch.bool))
        self.register_buffer("bias", causal.view(1, 1, config.n_positions, config.n_positions))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        query, key, value = self.c_attn(x).split(width, dim=2)
        query = self._split_heads(query)
        key = self._split_heads(key)
        value = self._split_heads(value)
        scores = query @ key.transpose(-1, -2) / math.sqrt(value.size(-1))
        causal = self.bias[:, :, :length, :length]
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        weights = self.attn_dropout(scores.softmax(dim=-1))
        heads = weights @ value
        merged = heads.transpose(1, 2).reshape(batch, length, width)
        return self.resid_dropout(self.c_proj(merged))

    def _split_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        return x.view(batch, length, self.n_head, width // self.n_head).transpose(1, 2)


class GPT2MLP(nn.Module):
    """Four times wider, GELU (GPT-2's tanh approximation), and back."""

    def __init__(self, config: GPT2Config) -> None:
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd)
        self.act = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.c_proj(self.act(self.c_fc(x))))


class GPT2Block(nn.Module):
    """Norm first, then attention or MLP, each added back to its input (the residual adds)."""

    def __init__(self, config: GPT2Config) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.attn = GPT2Attention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.mlp = GPT2MLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT2Model(nn.Module):
    """Token and position embeddings, the blocks, and a last LayerNorm."""

    def __init__(self, config: GPT2Config) -> None:
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.n_positions, config.n_embd)
        self.drop = nn.Dropout(config.dropout)
        self.h = nn.ModuleList(GPT2Block(config) for _ in range(config.n_layer))
        self.ln_f = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.size(1), device=tokens.device)
        x = self.drop(self.wte(tokens) + self.wpe(positions))
        for block in self.h:
            x = block(x)
        return self.ln_f(x)


class GPT2(nn.Module):
    """GPT-2 with its language-model head (``GPT2LMHeadModel``): token ids to logits."""

    def __init__(self, config: GPT2Config) -> None:
        super().__init__()
        self.config = config
        self.vocab_size = config.vocab_size
        self.transformer = GPT2Model(config)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.lm_head.weight = self.transformer.wte.weight  # tied, as in GPT-2

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.lm_head(self.transformer(tokens))


def gpt2(n_layer: int = 12, seed: int = 0, **sizes: int | float) -> GPT2:
    """A GPT-2-shaped model with ``n_layer`` blocks and random weights drawn from ``seed``, as
    GPT-2 initialises them (normal, standard deviation 0.02; zero biases)."""
    config = GPT2Config(n_layer=n_layer, **sizes)
    with torch.random.fork_rng(devices=[]):  # the caller's random numbers stay as they were
        torch.manual_seed(seed)
        model = GPT2(config)
        for module in model.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, nn.Linear) and module.bias is not None:
                nn.init.zeros_(module.bias)
    return model


# --- a Transformer small enough for a lesson ---------------------------------------------------


class TinyAttention(nn.Module):
    """Causal self-attention with two heads, each step on its own line."""

    def __init__(self, d_model: int, n_heads: int) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        head_width = width // self.n_heads
        q = self.query(x).view(batch, length, self.n_heads, head_width).transpose(1, 2)
        k = self.key(x).view(batch, length, self.n_heads, head_width).transpose(1, 2)
        v = self.value(x).view(batch, length, self.n_heads, head_width).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(head_width)
        future = torch.ones(length, length, dtype=torch.bool).triu(diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        weights = scores.softmax(dim=-1)
        heads = weights @ v
        merged = heads.transpose(1, 2).reshape(batch, length, width)
        return self.out(merged)


class TinyMLP(nn.Module):
    def __init__(self, d_model: int) -> None:
        super().__init__()
        self.up = nn.Linear(d_model, 4 * d_model)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(self.act(self.up(x)))


class TinyBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attention = TinyAttention(d_model, n_heads)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = TinyMLP(d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


class TinyTransformer(nn.Module):
    """Token ids to logits: embeddings, ``n_layers`` blocks, a LayerNorm and a linear head."""

    def __init__(
        self,
        vocab_size: int = 16,
        context: int = 8,
        d_model: int = 32,
        n_heads: int = 2,
        n_layers: int = 2,
    ) -> None:
        super().__init__()
        self.vocab_size = vocab_size
        self.embed = nn.Embedding(vocab_size, d_model)
        self.position = nn.Embedding(context, d_model)
        self.blocks = nn.ModuleList(TinyBlock(d_model, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.size(1))
        x = self.embed(tokens) + self.position(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def tiny_transformer(seed: int = 0, **sizes: int) -> TinyTransformer:
    """A `TinyTransformer` with random weights drawn from ``seed``."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return TinyTransformer(**sizes)


# --- a batch and a loss, for either ---------------------------------------------------------------


def batch(
    model: GPT2 | TinyTransformer, batch_size: int, length: int, seed: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """Random token ids (``batch_size``, ``length``) for ``model``, and the next token after each
    one, the targets: drawn from ``seed``, the same every run."""
    generator = torch.Generator().manual_seed(seed)
    text = torch.randint(model.vocab_size, (batch_size, length + 1), generator=generator)
    return text[:, :-1], text[:, 1:]


def loss(
    model: GPT2 | TinyTransformer, tokens: torch.Tensor, targets: torch.Tensor
) -> torch.Tensor:
    """The mean cross-entropy of ``model``'s next-token predictions: one forward pass."""
    logits = model(tokens)
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
