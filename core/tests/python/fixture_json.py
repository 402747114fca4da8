"""What the fixture writers share: a tensor as the fixtures' JSON (`{"shape", "data"}`, flat,
row-major; core/tests/fixtures/README.md) and writing one fixture file."""
import json


def tensor(t):
    return {"shape": list(t.shape), "data": t.detach().reshape(-1).tolist()}


def write(path, fixture):
    """Writes `fixture` as JSON to `path` and prints the path (and the loss, when it has one)."""
    with open(path, "w") as fh:
        json.dump(fixture, fh)
    print(path, *(("loss", fixture["loss"]) if "loss" in fixture else ()))
