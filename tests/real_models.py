"""Models of the shapes learners bring, written here after the public descriptions of the code
they come from (no code copied, no weights downloaded), small enough to test in a second.

Each entry makes a model and a function that runs its forward pass and returns a scalar loss:
``(model, run)``; ``run()`` makes a fresh graph each time.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import nn

Case = tuple[nn.Module, Callable[[], torch.Tensor]]


def mnist_cnn() -> Case:
    # pytorch/examples, mnist/main.py: two convolutions, max pooling, dropout, two linear layers,
    # log_softmax and nll_loss (channels and image made small).
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 4, 3, 1), nn.Conv2d(4, 8, 3, 1)
            self.dropout1, self.dropout2 = nn.Dropout(0.25), nn.Dropout(0.5)
            self.fc1, self.fc2 = nn.Linear(8 * 4 * 4, 16), nn.Linear(16, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
            x = torch.flatten(self.dropout1(x), 1)
            x = self.dropout2(F.relu(self.fc1(x)))
            return F.log_softmax(self.fc2(x), dim=1)

    model = Net()
    images, labels = torch.randn(3, 1, 12, 12), torch.tensor([1, 7, 3])
    return model, lambda: F.nll_loss(model(images), labels)


class RNNModel(nn.Module):
    """pytorch/examples, word_language_model/model.py RNNModel: an embedding, the same Dropout
    before and after a two-layer GRU with dropout between layers, a decoder (tied to the
    embedding's weights with ``tie``)."""

    def __init__(self, tokens=30, width=8, tie=False):
        super().__init__()
        self.drop = nn.Dropout(0.2)
        self.encoder = nn.Embedding(tokens, width)
        self.rnn = nn.GRU(width, width, 2, dropout=0.2)
        self.decoder = nn.Linear(width, tokens)
        if tie:
            self.decoder.weight = self.encoder.weight

    def forward(self, tokens):
        output, _ = self.rnn(self.drop(self.encoder(tokens)))
        return F.log_softmax(self.decoder(self.drop(output)), dim=-1)


def word_language_model() -> Case:
    model = RNNModel(tie=True)
    tokens = torch.randint(0, 30, (5, 2))
    return model, lambda: F.nll_loss(model(tokens).view(-1, 30), tokens.view(-1))


class Sequence(nn.Module):
    """pytorch/examples, time_sequence_prediction/train.py Sequence: two LSTMCells and a Linear
    run one time step at a time."""

    def __init__(self, width=6):
        super().__init__()
        self.width = width
        self.cell1, self.cell2 = nn.LSTMCell(1, width), nn.LSTMCell(width, width)
        self.linear = nn.Linear(width, 1)

    def forward(self, x):
        h1 = c1 = h2 = c2 = torch.zeros(x.size(0), self.width)
        outputs = []
        for step in x.split(1, dim=1):
            h1, c1 = self.cell1(step, (h1, c1))
            h2, c2 = self.cell2(h1, (h2, c2))
            outputs.append(self.linear(h2))
        return torch.cat(outputs, dim=1)


def time_sequence_prediction() -> Case:
    model = Sequence()
    x = torch.randn(2, 6)
    return model, lambda: F.mse_loss(model(x[:, :-1]), x[:, 1:])


def vae() -> Case:
    # pytorch/examples, vae/main.py: an encoder to a mean and a log-variance, the
    # reparameterisation with noise, a decoder, and the loss of reconstruction plus KL.
    class VAE(nn.Module):
        def __init__(self, pixels=16, hidden=8, latent=2):
            super().__init__()
            self.fc1, self.fc21, self.fc22 = (
                nn.Linear(pixels, hidden),
                nn.Linear(hidden, latent),
                nn.Linear(hidden, latent),
            )
            self.fc3, self.fc4 = nn.Linear(latent, hidden), nn.Linear(hidden, pixels)

        def forward(self, x):
            h = F.relu(self.fc1(x))
            mu, logvar = self.fc21(h), self.fc22(h)
            z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
            return torch.sigmoid(self.fc4(F.relu(self.fc3(z)))), mu, logvar

    model = VAE()
    x = torch.rand(3, 16)

    def run():
        recon, mu, logvar = model(x)
        bce = F.binary_cross_entropy(recon, x, reduction="sum")
        return bce - 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())

    return model, run


def dcgan_discriminator_step() -> Case:
    # pytorch/examples, dcgan/main.py: the discriminator's loss on real images and on the
    # generator's images, detached so that the step trains the discriminator only.
    generator = nn.Sequential(
        nn.ConvTranspose2d(4, 8, 4, 1, 0, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
        nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh(),
    )  # fmt: skip
    discriminator = nn.Sequential(
        nn.Conv2d(1, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2),
        nn.Conv2d(8, 1, 4, 1, 0, bias=False), nn.Flatten(), nn.Sigmoid(),
    )  # fmt: skip
    model = nn.ModuleDict({"generator": generator, "discriminator": discriminator})
    real, noise = torch.randn(2, 1, 8, 8), torch.randn(2, 4, 1, 1)

    def run():
        fake = generator(noise)
        on_real = F.binary_cross_entropy(discriminator(real), torch.ones(2, 1))
        on_fake = F.binary_cross_entropy(discriminator(fake.detach()), torch.zeros(2, 1))
        return on_real + on_fake

    return model, run


def super_resolution() -> Case:
    # pytorch/examples, super_resolution/model.py: convolutions and a pixel shuffle.
    class Net(nn.Module):
        def __init__(self, factor=2):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 8, 5, padding=2), nn.Conv2d(8, 8, 3, padding=1)
            self.conv3 = nn.Conv2d(8, factor**2, 3, padding=1)
            self.pixel_shuffle = nn.PixelShuffle(factor)

        def forward(self, x):
            x = torch.relu(self.conv2(torch.relu(self.conv1(x))))
            return self.pixel_shuffle(self.conv3(x))

    model = Net()
    small, large = torch.randn(1, 1, 6, 6), torch.randn(1, 1, 12, 12)
    return model, lambda: F.mse_loss(model(small), large)


def fast_neural_style() -> Case:
    # pytorch/examples, fast_neural_style/transformer_net.py: reflection padding, instance
    # norms, residual blocks, upsampling by interpolation (made narrow).
    class ConvLayer(nn.Module):
        def __init__(self, into, out, kernel, stride):
            super().__init__()
            self.pad = nn.ReflectionPad2d(kernel // 2)
            self.conv = nn.Conv2d(into, out, kernel, stride)

        def forward(self, x):
            return self.conv(self.pad(x))

    class ResidualBlock(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.conv1, self.in1 = ConvLayer(channels, channels, 3, 1), nn.InstanceNorm2d(channels)
            self.conv2, self.in2 = ConvLayer(channels, channels, 3, 1), nn.InstanceNorm2d(channels)

        def forward(self, x):
            return x + self.in2(self.conv2(torch.relu(self.in1(self.conv1(x)))))

    class TransformerNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.in1 = ConvLayer(3, 4, 3, 1), nn.InstanceNorm2d(4, affine=True)
            self.conv2, self.in2 = ConvLayer(4, 8, 3, 2), nn.InstanceNorm2d(8, affine=True)
            self.res1, self.res2 = ResidualBlock(8), ResidualBlock(8)
            self.deconv = ConvLayer(8, 3, 3, 1)

        def forward(self, x):
            y = torch.relu(self.in1(self.conv1(x)))
            y = self.res2(self.res1(torch.relu(self.in2(self.conv2(y)))))
            y = F.interpolate(y, mode="nearest", scale_factor=2)
            return self.deconv(y)

    model = TransformerNet()
    image = torch.randn(1, 3, 8, 8)
    return model, lambda: model(image).pow(2).mean()


def gcn() -> Case:
    # pytorch/examples, gcn: layers that multiply features by weights, then by the normalised
    # adjacency matrix.
    class GraphConv(nn.Module):
        def __init__(self, into, out):
            super().__init__()
            self.linear = nn.Linear(into, out)

        def forward(self, x, adjacency):
            return adjacency @ self.linear(x)

    class GCN(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer1, self.layer2 = GraphConv(5, 8), GraphConv(8, 3)
            self.dropout = nn.Dropout(0.5)

        def forward(self, x, adjacency):
            x = self.dropout(F.relu(self.layer1(x, adjacency)))
            return F.log_softmax(self.layer2(x, adjacency), dim=1)

    model = GCN()
    edges = (torch.rand(6, 6) > 0.5).float() + torch.eye(6)
    adjacency = edges / edges.sum(1, keepdim=True)
    x, labels = torch.randn(6, 5), torch.tensor([0, 1, 2, 0, 1, 2])
    return model, lambda: F.nll_loss(model(x, adjacency), labels)


def micrograd_classes() -> type[nn.Module]:
    # karpathy/micrograd, nn.py: an MLP of neurons of single numbers, as learners port it to
    # torch scalars; the max-margin loss of the demo notebook below.
    class Neuron(nn.Module):
        def __init__(self, inputs, nonlinear=True):
            super().__init__()
            self.w = nn.ParameterList(
                nn.Parameter(torch.empty(()).uniform_(-1, 1)) for _ in range(inputs)
            )
            self.b = nn.Parameter(torch.zeros(()))
            self.nonlinear = nonlinear

        def forward(self, xs):
            act = sum((wi * xi for wi, xi in zip(self.w, xs, strict=True)), self.b)
            return act.relu() if self.nonlinear else act

    class Layer(nn.Module):
        def __init__(self, inputs, outputs, **kind):
            super().__init__()
            self.neurons = nn.ModuleList(Neuron(inputs, **kind) for _ in range(outputs))

        def forward(self, xs):
            return [neuron(xs) for neuron in self.neurons]

    class MLP(nn.Module):
        def __init__(self, inputs, sizes):
            super().__init__()
            widths = [inputs, *sizes]
            self.layers = nn.ModuleList(
                Layer(widths[i], widths[i + 1], nonlinear=i != len(sizes) - 1)
                for i in range(len(sizes))
            )

        def forward(self, xs):
            for layer in self.layers:
                xs = layer(xs)
            return xs[0]

    return MLP


def micrograd_mlp() -> Case:
    model = micrograd_classes()(2, [4, 4, 1])
    points = [[torch.tensor(0.5), torch.tensor(-1.0)], [torch.tensor(1.0), torch.tensor(0.3)]]
    labels = [1.0, -1.0]

    def run():
        scores = [model(point) for point in points]
        return sum((1 - y * s).relu() for y, s in zip(labels, scores, strict=True)) / 2

    return model, run


def micrograd_demo() -> Case:
    # micrograd's demo notebook at its size: MLP(2, [16, 16, 1]) on points of two classes, the
    # max-margin loss plus an L2 penalty summed over every one of its 337 parameters, a term
    # that no module computes.
    model = micrograd_classes()(2, [16, 16, 1])
    points = torch.randn(4, 2).unbind()
    labels = [1.0, -1.0, 1.0, -1.0]

    def run():
        scores = [model(list(point.unbind())) for point in points]
        data = sum((1 - y * s).relu() for y, s in zip(labels, scores, strict=True)) / len(labels)
        return data + 1e-4 * sum(p * p for p in model.parameters())

    return model, run


def actor_critic() -> Case:
    # pytorch/examples, reinforcement_learning/actor_critic.py: a shared layer, an action head
    # with softmax and a value head; the policy loss weighted by the advantage, and the value's
    # smooth L1 loss.
    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.affine1 = nn.Linear(4, 16)
            self.action_head, self.value_head = nn.Linear(16, 2), nn.Linear(16, 1)

        def forward(self, x):
            x = F.relu(self.affine1(x))
            return F.softmax(self.action_head(x), dim=-1), self.value_head(x)

    model = Policy()
    states, actions = torch.randn(3, 4), torch.tensor([0, 1, 1])
    returns = torch.tensor([1.0, 0.5, -0.2])

    def run():
        probabilities, values = model(states)
        log_probs = probabilities.gather(1, actions[:, None]).log().squeeze(1)
        advantage = returns - values.squeeze(1).detach()
        return -(log_probs * advantage).sum() + F.smooth_l1_loss(values.squeeze(1), returns)

    return model, run


CASES: dict[str, Callable[[], Case]] = {
    "mnist CNN": mnist_cnn,
    "word language model (GRU, tied)": word_language_model,
    "time sequence prediction (LSTMCell)": time_sequence_prediction,
    "VAE": vae,
    "DCGAN discriminator step": dcgan_discriminator_step,
    "super resolution": super_resolution,
    "fast neural style": fast_neural_style,
    "GCN": gcn,
    "micrograd MLP of scalars": micrograd_mlp,
    "micrograd demo (MLP 2-16-16-1, L2 penalty)": micrograd_demo,
    "actor-critic": actor_critic,
}


def d2l_gru_from_scratch() -> Case:
    # d2l.ai, "Gated Recurrent Units (GRU)", from scratch: the gates' weights as parameters of
    # one module, the recurrence written out step by step.
    class GRUScratch(nn.Module):
        def __init__(self, inputs=3, hidden=4):
            super().__init__()

            def triple():
                return (
                    nn.Parameter(torch.randn(inputs, hidden) * 0.1),
                    nn.Parameter(torch.randn(hidden, hidden) * 0.1),
                    nn.Parameter(torch.zeros(hidden)),
                )

            self.W_xz, self.W_hz, self.b_z = triple()
            self.W_xr, self.W_hr, self.b_r = triple()
            self.W_xh, self.W_hh, self.b_h = triple()
            self.hidden = hidden

        def forward(self, inputs):
            state = torch.zeros(inputs.shape[1], self.hidden)
            outputs = []
            for x in inputs:
                z = torch.sigmoid(x @ self.W_xz + state @ self.W_hz + self.b_z)
                r = torch.sigmoid(x @ self.W_xr + state @ self.W_hr + self.b_r)
                candidate = torch.tanh(x @ self.W_xh + (r * state) @ self.W_hh + self.b_h)
                state = z * state + (1 - z) * candidate
                outputs.append(state)
            return torch.stack(outputs)

    model = GRUScratch()
    inputs = torch.randn(35, 2, 3)  # d2l's 35 time steps
    return model, lambda: model(inputs).pow(2).mean()


def checkpointed_blocks() -> Case:
    # The PyTorch docs' torch.utils.checkpoint, non-reentrant, around each block of a stack:
    # the forward of a block runs again when backward needs what it saved.
    from torch.utils.checkpoint import checkpoint

    class Checkpointed(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(3))
            self.head = nn.Linear(4, 1)

        def forward(self, x):
            for block in self.blocks:
                x = checkpoint(block, x, use_reentrant=False)
            return self.head(x)

    model = Checkpointed()
    x = torch.randn(3, 4, requires_grad=True)
    return model, lambda: model(x).pow(2).sum()


def wgan_gp_critic_step() -> Case:
    # The WGAN-GP paper's critic loss as PyTorch implementations write it: the gradient of the
    # critic at points between real and fake samples, taken with create_graph=True, penalised
    # for a norm away from 1.
    critic = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    real, fake = torch.randn(4, 3), torch.randn(4, 3)

    def run():
        mix = torch.rand(4, 1)
        between = (mix * real + (1 - mix) * fake).requires_grad_()
        (slope,) = torch.autograd.grad(critic(between).sum(), between, create_graph=True)
        penalty = ((slope.norm(dim=1) - 1) ** 2).mean()
        return critic(fake).mean() - critic(real).mean() + 10 * penalty

    return critic, run


def transformer_encoder() -> Case:
    # torch.nn.TransformerEncoder, as the PyTorch tutorials build a small one: two layers, a
    # causal mask, a linear head.
    class Encoder(nn.Module):
        def __init__(self, width=8):
            super().__init__()
            layer = nn.TransformerEncoderLayer(width, 2, dim_feedforward=16, dropout=0.1)
            self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = nn.Linear(width, 5)

        def forward(self, x):
            mask = nn.Transformer.generate_square_subsequent_mask(x.shape[0])
            return self.head(self.encoder(x, mask=mask, is_causal=True))

    model = Encoder()
    x = torch.randn(4, 2, 8)
    return model, lambda: model(x).log_softmax(-1).mean()


CASES.update(
    {
        "d2l GRU from scratch": d2l_gru_from_scratch,
        "checkpointed blocks": checkpointed_blocks,
        "WGAN-GP critic step": wgan_gp_critic_step,
        "transformer encoder": transformer_encoder,
    }
)
