// The launch blog: two beginner guides linked from the home page, and articles about collecting,
// wallets and the films in the catalogue. Written in Markdown; the server renders and sanitizes it.

export interface SeedPost {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  /** Label on the generated cover. */
  label: string;
  /** Whose colours the cover takes (a film slug, or any key). */
  palette: string;
  featured: boolean;
  /** Published this many days before the seed time. */
  daysAgo: number;
  markdown: string;
}

export const seedPosts: SeedPost[] = [
  {
    slug: "what-is-an-nft",
    title: "What is an NFT?",
    excerpt:
      "A plain-language introduction: what you actually own when you buy an NFT, how the blockchain proves it, and why film studios license them.",
    author: "Meera Krishnan",
    label: "Beginner's guide",
    palette: "nonfungiblespb",
    featured: true,
    daysAgo: 40,
    markdown: `Think of the ticket stub from the first day, first show of a film you loved. It is a small piece of paper, but it is *yours*: it proves you were there, and no copy of it is quite the same thing. An NFT is a digital version of that idea.

## Non-fungible, in one sentence

*Fungible* things are interchangeable: one ten-rupee note is as good as any other. A *non-fungible* token is one that is not interchangeable with any other. Each one has its own number, its own history and its own owner, recorded on a public blockchain.

## What you own

When you buy a Diginoor NFT you own a token on a public blockchain. The token points to a specific, officially licensed piece of film art: a still, a poster, a dialogue moment, a song, a scan of a prop. Three things come with it:

- **Ownership that anyone can check.** The blockchain records which wallet holds the token. Nobody, including us, can quietly change that record.
- **A licence to enjoy the art.** The studio keeps the copyright in the film; you receive a personal licence to display the artwork, in your Diginoor showcase or anywhere else you like. Some pieces carry more: the one-of-one song in the [Non-Fungible SPB collection](/nonfungiblespb) comes with a share of its copyright, and the page says so plainly.
- **The right to sell it on.** You can list a token you own at a fixed price or put it up for auction. Every resale pays the production house a 10% royalty, automatically.

## What you do not own

An NFT is not the film and not its copyright (unless a page says otherwise). Buying *Kabali Da!* does not let you screen *Kabali* in a theatre. It is a collectible, like a signed poster, with a certificate that cannot be forged.

## Why the blockchain matters

A signed poster needs an expert to tell you it is real. A token's history is public: when it was created, by which contract, and every wallet it has passed through. On every NFT page you will find a *proof of authenticity* link that opens the token on a blockchain explorer, so you never have to take our word for it.

## Why studios license them

For studios and artists, collectibles are a new way to reach fans directly, and the 10% royalty means they share in the value their work creates long after the first sale. For fans, it is a way to own a moment of a film officially, not a screenshot of it.

## Where to go next

Ready to try? Read [A beginner's guide to Diginoor](/blog/a-beginners-guide-to-diginoor) for the step-by-step, or browse the [marketplace](/marketplace) and see which moment you would frame first.`,
  },
  {
    slug: "a-beginners-guide-to-diginoor",
    title: "A beginner's guide to Diginoor",
    excerpt:
      "From sign-up to your first collectible: your account, paying in rupees by card or UPI, the wallet we make for you, and the showcase where your collection lives.",
    author: "Rahul Menon",
    label: "Beginner's guide",
    palette: "kabali",
    featured: true,
    daysAgo: 38,
    markdown: `Welcome. This guide takes you from your first visit to your first collectible in five steps. None of them needs a crypto wallet, an app or any experience with crypto.

## 1. Create your account

[Sign up](/signup) with your email address. We send you a link to confirm your email; open it and you are in. Your account holds your profile, your showcase and your notifications.

## 2. Explore the collections

Each film has its own collection page: [Kabali](/kabali), [Sivaji](/sivaji), [Chandramukhi](/chandramukhi) and the tribute to [Pasumai Nayagan Vivek](/pasumainayaganvivek). The [marketplace](/marketplace) shows every NFT in one place, with filters for rarity, film, star and price.

Every NFT has a **tier** that tells you how scarce it is:

| Tier | Edition size | What it usually is |
| --- | --- | --- |
| Common | hundreds | stills, posters, famous lines |
| Rare | tens | songs and iconic scenes |
| Ultimate | a handful | signature moments, with extras |
| Legendary | one of one | a single owner, exclusive rewards |

## 3. Buy in rupees

Press *Purchase* on an NFT you love. Prices are shown in rupees; pay by card or by UPI, and the checkout shows exactly what you are charged before you pay.

## 4. Your wallet is made for you

The first time you buy, Diginoor makes you a wallet, secured by a passkey on your phone or computer: you confirm with your fingerprint, face or screen lock. There is no app to install and no seed phrase to write down, and the network fees are on us. Your NFT is in your wallet **within seconds**, and we email you a confirmation.

Already use a crypto wallet? You are welcome to link it on the [wallet page](/wallet), pay from it and receive your NFTs there. Auctions are paid in crypto, so bidding needs a wallet app: each bid must be higher than the current highest bid, and the highest bid when the countdown ends wins.

## 5. Build your showcase

Everything you own appears in your [profile](/profile) showcase. From there you can share it, keep it, or put a piece on sale at a fixed price or by auction. Whenever a piece is resold, 10% goes back to the production house that made the film.

## A few habits worth forming early

- Keep the screen lock of the phone that holds your passkey. Add a second device on the [wallet page](/wallet) so one lost phone is never a lost collection. (More in [keeping your collection safe](/blog/keeping-your-collection-safe).)
- Read an NFT's *exclusive rewards* before you buy: some come with clips, signed lobby cards or saplings to plant.
- Start small. A Common piece from a film you love is a fine first collectible.

Questions? The [Help Center](/how%20it%20works) answers the ones fans ask most, and our team is one message away on the [contact page](/contact).`,
  },
  {
    slug: "choosing-your-first-wallet",
    title: "Your wallet: made for you, and yours to keep",
    excerpt:
      "What a wallet really holds, the passkey wallet we make for you at your first purchase, and how to use a crypto wallet you already have.",
    author: "Vikram Sethu",
    label: "Wallets",
    palette: "sivaji",
    featured: false,
    daysAgo: 31,
    markdown: `Your wallet is where your collectibles live. It is also the part that confuses newcomers most, so here is the short version: you do not need to set one up. Diginoor makes one for you.

## What a wallet actually holds

A wallet does not hold your NFTs the way a purse holds coins. The NFTs are recorded on a public blockchain; the wallet holds the **key** that proves they are yours. Whoever holds the key controls the wallet and everything in it.

## The wallet we make for you

The first time you buy, Diginoor makes you a wallet whose key is a **passkey** on your phone or computer. You confirm with your fingerprint, face or screen lock, the way you already unlock your phone. That means:

- **No app and no seed phrase.** The passkey stays on your device; nobody, including us, can copy it.
- **No network fees.** Every blockchain transaction has a small fee, called gas. For your passkey wallet, Diginoor pays it.
- **Your NFTs arrive in seconds**, after you pay in rupees by card or UPI.

## Add a second device

A passkey lives on the device that made it. Open the [wallet page](/wallet) and add your other phone or laptop, so that a lost or broken phone never means a lost collection.

## Already have a crypto wallet?

You are welcome to use it. Link it on the [wallet page](/wallet): Diginoor asks your wallet to sign a short message, which shares only your public address and gives nobody the power to move your tokens. You can then choose to receive your purchases there, pay in crypto at checkout, and bid in auctions, which are paid in crypto only. You can also move an NFT from your passkey wallet to a wallet of your own at any time.

If you do use a wallet app, protect its secret recovery phrase: write it on paper, never type it into a website, and never share it. Diginoor staff will never ask for it.

Next: [keeping your collection safe](/blog/keeping-your-collection-safe), the habits that protect everything you own.`,
  },
  {
    slug: "keeping-your-collection-safe",
    title: "Seed phrases, scams and signatures: keeping your collection safe",
    excerpt:
      "The blockchain cannot be hacked, but people can be fooled. Six habits that protect your wallet, and the scams that collectors of film NFTs meet most often.",
    author: "Vikram Sethu",
    label: "Wallets",
    palette: "pasumainayaganvivek",
    featured: false,
    daysAgo: 24,
    markdown: `Blockchains are very hard to attack. Collectors lose NFTs for a simpler reason: someone persuades them to hand over access. The good news is that a few habits stop almost every trick.

## 1. Your recovery phrase is for you alone

Nobody legitimate will ever ask for it: not Diginoor, not a wallet's support team, not a "verification" form. Anyone who has the phrase has your wallet. If a message, a pop-up or a friendly stranger on Discord asks for it, that is the scam.

## 2. Read before you sign

Your wallet asks you to approve every transaction. Most of the time that is a payment or a bid you just made. Be suspicious of anything you did not start, and especially of requests to grant **approval for all** your tokens to an address you do not recognise. That permission lets the other side move your whole collection.

## 3. Check the address bar

Phishing sites copy our pages down to the pixel. Before you connect your wallet, check that you are on the Diginoor address you normally use, and bookmark it. Links in unsolicited emails or direct messages deserve a second look.

## 4. "Free NFT" airdrops are not always gifts

Tokens that appear in your wallet from nowhere sometimes link to a site that asks you to "claim" a reward by signing a transaction. Ignore them. Our real drops and rewards are always announced on Diginoor itself.

## 5. Keep a small wallet for everyday use

Serious collectors often keep two wallets: one for day-to-day buying and bidding, and a separate one, perhaps a hardware wallet, where their most valuable pieces rest. Moving a Legendary piece to cold storage takes one transfer.

## 6. Verify before you buy on the secondary market

Every genuine Diginoor NFT was created by our collectible contract. On each NFT page, the *proof of authenticity* link opens the token on a blockchain explorer; the contract and the token number must match. Lookalike tokens from other contracts are copies, whatever their picture shows.

## If something goes wrong

Act quickly. Move whatever remains to a fresh wallet with a new recovery phrase, revoke approvals you did not mean to give, and [tell us](/contact). We cannot reverse blockchain transactions, but we will look into what happened with you and help you report it.`,
  },
  {
    slug: "common-to-legendary-tiers-and-editions",
    title: "Common to Legendary: how tiers and editions work",
    excerpt:
      "What makes one collectible rarer than another, why edition size matters more than price, and how to read an NFT page before you buy.",
    author: "Ananya Iyer",
    label: "Collecting",
    palette: "chandramukhi",
    featured: false,
    daysAgo: 17,
    markdown: `Every Diginoor NFT belongs to one of four tiers. The tier is written in words on every card and coloured the same way everywhere: silver for Common, blue for Rare, violet for Ultimate and gold for Legendary.

## The four tiers

**Common** pieces come in editions of hundreds. They are the stills, posters and lines that everyone quotes: *Kabali Da!* in an edition of 500, *Lakalakalaka* from Chandramukhi, the *Sivaji The Boss* poster. They are where most collections begin.

**Rare** pieces come in editions of tens: songs like *Neruppu Da* and *Balleilakka*, or scenes such as *The Psychiatrist*. Many carry an extra, often a 60-second clip.

**Ultimate** pieces are made in a handful, sometimes five, sometimes twenty. They mark the moments fans argue about: *The Transformation* in Chandramukhi, *Black Money Vault* in Sivaji. Signed digital lobby cards and behind-the-scenes material usually come with them.

**Legendary** pieces are **one of one**. There is a single token and a single owner, for ever. Several are sold by auction, like Chandramukhi's anklet or the one-rupee coin from Sivaji, and they carry the most generous rewards: 3D scans of props, handwritten notes, a grove of saplings planted in the holder's name.

## Edition size is the number to watch

Price tells you what a piece costs today; edition size tells you how many people can ever own it. On every NFT page, the details box says how many of the edition remain, for example *37 of 100 remaining*. When a Rare edition sells out, the only way to own one is to buy it from another collector.

## Reading an NFT page

Before you buy, look at:

- **Properties:** category, film, star, production house and rarity.
- **Exclusive rewards:** what comes with the token beyond the art.
- **Creator and royalties:** 10% of every resale goes to the production house.
- **Where it lives:** each token's chain, contract address and token id (with a block explorer link where the chain has one), enough to find it in any wallet or marketplace.

## Collecting with a theme

The collections that feel most alive usually follow a thread: one star across films, every song from one soundtrack, or a single film from poster to final scene. A theme also makes it easier to decide what *not* to buy, which is half of collecting well.`,
  },
  {
    slug: "kabali-da-inside-the-kabali-collection",
    title: "Kabali da: inside the Kabali collection",
    excerpt:
      "A suit, a silver beard and two words that shook theatres. How we chose the moments of Kabali, from the prison gate to the one-of-one Magizhchi.",
    author: "Divya Natarajan",
    label: "Kabali",
    palette: "kabali",
    featured: true,
    daysAgo: 12,
    markdown: `When *Kabali* opened in 2016, the first thing audiences heard from Rajinikanth's ageing don was not a punch line but a correction. *Kabali da.* Two words, a slight smile, and a theatre on its feet. Building a collection from this film meant starting there.

## A film of quiet entrances

*Kabali* is a film about a man who walks out of a Malaysian prison after twenty-five years and refuses to be finished. It is slower and more brooding than the Superstar's mass entertainers, and its most loved images are still ones: a man buttoning his blazer at the prison gate, a silver beard in the morning light, a suit and a chair.

The Common tier collects those images. **Out of the Prison Gate**, **The Silver Beard** and **Kabali Da!** come in editions of several hundred, so any fan can own a piece of the film's first act.

## The songs

*Neruppu Da* became the anthem of the film's release, and it anchors the Rare tier with a 60-second clip of the sequence for every holder. *Ulagam Oruvanukka* joins it as a Common song piece for those who want the soundtrack on their shelf.

## Kumudhavalli

Radhika Apte's Kumudhavalli is the film's heart: the wife Kabali has searched for through twenty-five years. **Kumudhavalli** and **Reunion in Pondicherry** follow her story, the second in a Rare edition of only 40.

## The Ultimate and Legendary pieces

**Malaysian Dawn** and **The Final Shot** are Ultimate scenes in editions of fifteen and eight, with signed digital lobby cards and behind-the-scenes photographs. At the top sit two one-of-ones: **Gang War**, at a fixed price, and **Magizhchi**, the line that closes so many of Kabali's scenes, sold by auction.

## Made with the studio

Every piece is licensed by Kaveri Frames, and 10% of every resale goes back to them. You can see the whole collection on the [Kabali page](/kabali), or [filter the marketplace](/marketplace?film=kabali) by tier and price.`,
  },
  {
    slug: "lakalakalaka-twenty-years-of-chandramukhi",
    title: "Lakalakalaka: twenty years of Chandramukhi",
    excerpt:
      "A psychiatrist, a locked south wing and one of Tamil cinema's most famous transformations. What makes Chandramukhi endure, and the collection built around it.",
    author: "Ananya Iyer",
    label: "Chandramukhi",
    palette: "chandramukhi",
    featured: false,
    daysAgo: 8,
    markdown: `Few films hold comedy, horror and dance together as easily as *Chandramukhi* (2005). A psychiatrist arrives at a palace where the spirit of a dancer is said to live behind a locked door in the south wing. By the end, a single line, *Lakalakalaka*, has become part of the language.

## Why it endures

The film works because it trusts its performers. Rajinikanth plays Dr. Saravanan with an easy, teasing charm that makes the scares land harder. Jyothika's Ganga, and the transformation at the film's climax, is the performance people still imitate at weddings. Nayanthara's Durga gives the family drama its warmth.

## The palace in the collection

The collection follows the film's geography. **Vijayapuram Palace** and **The South Wing** are Common stills of the house itself; **Durga** and the poster-style **Lakalakalaka** complete the first tier.

The songs carry the Rare tier: **Raa Raa**, with a 60-second clip for holders, and **Konja Neram**. **The Psychiatrist** captures Saravanan's investigation in an edition of only 40.

## The transformation

**The Transformation** is the collection's Ultimate centrepiece, in an edition of ten, with a signed digital lobby card and notes from the make-up department on how the look was built. **Vettaiyan Raja**, the king of the palace's legend, is an Ultimate piece sold by auction.

## Two one-of-ones

Two Legendary pieces sit at the top. **Chandramukhi's Anklet** is a prop scanned in 3D, sold by auction with a handwritten note from the costume designer. The **Original Release Poster** is a single fixed-price token of the poster that hung outside theatres in 2005.

The whole collection, licensed by Chola Screen Works, is on the [Chandramukhi page](/chandramukhi).`,
  },
  {
    slug: "pasumai-nayagan-vivek-a-sapling-for-every-collector",
    title: "Pasumai Nayagan Vivek: a sapling for every collector",
    excerpt:
      "The comedian who made Tamil Nadu laugh and think set out to plant a crore of trees. Every NFT in his tribute collection comes with a sapling to plant.",
    author: "Divya Natarajan",
    label: "Pasumai Nayagan Vivek",
    palette: "pasumainayaganvivek",
    featured: true,
    daysAgo: 5,
    markdown: `Vivek made audiences laugh for more than three decades, and he rarely let them leave without something to think about. Off screen, inspired by Dr. A. P. J. Abdul Kalam, he set himself a goal that sounded like one of his jokes and was not: to plant **one crore trees**. Fans called him *Pasumai Nayagan*, the green hero.

## A tribute with a purpose

When we sat down with his family to plan a collection, the first decision was that it should continue that work. So every holder of a Pasumai Nayagan Vivek NFT receives **a sapling to plant**. The higher tiers add more: a certificate naming your tree, a signed commemorative print, and for the one-of-one *The Last Sapling*, a grove of one hundred saplings planted in the holder's name.

## The pieces

- **Pasumai Nayagan** and **Chinna Kalaivanar**: Common posters and stills of the actor and the title fans gave him.
- **One Crore Trees**: a Common moment from the planting drives, in an edition of 300.
- **The Comedy Track** and **The Kalam Pledge**: Rare pieces; the first with a 60-second clip, the second marking the promise that started it all.
- **Padma Shri**: an Ultimate moment from the day the nation honoured him.
- **The Last Sapling** (auction) and **Laughter Therapy**: the collection's two Legendary one-of-ones.

## What each tier includes

Every NFT page in the collection lists exactly what comes with the token under *exclusive rewards*, so you know before you buy whether your piece brings one sapling, a named tree or a whole grove.

Visit the [collection page](/pasumainayaganvivek), and if you plant your sapling, we would love to see it.`,
  },
  {
    slug: "paadum-nila-the-last-song",
    title: "Paadum Nila: the one-of-one song and what its holder receives",
    excerpt:
      "The voice of a generation sang in sixteen languages. The Non-Fungible SPB collection holds a single token of his last song: here is exactly what comes with it.",
    author: "Meera Krishnan",
    label: "Non-Fungible SPB",
    palette: "nonfungiblespb",
    featured: false,
    daysAgo: 2,
    markdown: `S. P. Balasubrahmanyam sang for half a century, in sixteen languages. Generations of listeners called him *Paadum Nila*, the singing moon. The Non-Fungible SPB collection, made with Marina Light Studios, gathers a few treasured moments of his career around one extraordinary piece.

## The one-of-one song

**Paadum Nila: The Last Song** is a single Legendary token, sold by auction with a reserve price of $150,000. Its holder receives:

- **Thirty minutes** of the song's recording, unlocked for the holder alone;
- **51% of the song's copyright**, a real share of the rights, not only a licence to listen;
- the token itself, on Ethereum, with **10% royalties** paid to the creators on every resale.

We spell this out because a one-of-one with rights attached is not an ordinary collectible. Read the [featured song page](/nonfungiblespb) and its terms carefully before you bid, and [ask us](/contact) anything that is unclear.

## The rest of the collection

Not every fan can bid on a one-of-one, and the collection was built with that in mind:

- **Sixteen Languages**, a Common poster in an edition of 500, celebrates the range of his voice.
- **Studio Session, Kodambakkam**, a Rare moment in an edition of 25, captures him at work.
- **Concert Night**, an Ultimate piece in an edition of five, comes with a three-minute live recording.
- **The Superstar's Title Song**, a Legendary auction, honours the songs he sang for Rajinikanth's entrances.

## Bidding on an auction

Auctions are paid in crypto on the blockchain, and each bid must be higher than the current highest bid. Bidding needs a crypto wallet app of your own: if you have never bid before, read [your wallet: made for you, and yours to keep](/blog/choosing-your-first-wallet) first, and make sure your wallet holds enough for your bid and the network fee.`,
  },
];
