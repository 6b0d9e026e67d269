"""The Independent Chip Model: prize equity and place probabilities (:mod:`.harville`, :mod:`.fourier`),
call or fold against an all-in (:mod:`.spot`), knockout bounties on top of it (:mod:`.bounty`)."""
