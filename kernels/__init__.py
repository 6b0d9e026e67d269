"""Pure numerics for All-in Atlas: cards, evaluator, heads-up, multiway, ICM. No file or network I/O."""
