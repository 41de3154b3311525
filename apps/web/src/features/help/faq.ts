/** The questions fans ask most, answered in line with how Diginoor works today. */
export const faqs: { q: string; a: string }[] = [
  {
    q: "What exactly do I own when I buy a Diginoor NFT?",
    a: "You own a one-of-a-kind digital collectible of an officially licensed film moment: a still, poster, song moment, prop scan or scene. It is recorded as yours on a public blockchain and shown in your profile showcase. The studio keeps the copyright in the film; you get a personal licence to display and enjoy the art, and any extra rights (such as the copyright share of the one-of-one song) are written on the NFT's page.",
  },
  {
    q: "How do I pay?",
    a: "Prices are shown in rupees. Pay by card, or in rupees by UPI where the checkout offers it; the checkout shows exactly what you are charged before you pay. Already have a crypto wallet? You can pay from it too. Auctions are paid in crypto only, from a wallet app.",
  },
  {
    q: "Do I need a crypto wallet or an app?",
    a: "No. The first time you buy, Diginoor makes a wallet for you, protected by a passkey on your phone or computer: your fingerprint, face or screen lock. There is no app to install and no seed phrase to write down. If you already use a crypto wallet, you are welcome to link it on the wallet page and receive your NFTs there.",
  },
  {
    q: "How long does delivery take?",
    a: "Seconds. As soon as your payment is confirmed, your NFT is placed in your wallet and the confirmation page says so. It also appears in your profile showcase, and we email you a confirmation.",
  },
  {
    q: "Are there network or gas fees?",
    a: "Not for you. Every blockchain transaction needs a small fee, called gas; for your passkey wallet, Diginoor pays it. The price you see at checkout is the price you pay.",
  },
  {
    q: "How do auctions work?",
    a: "Auction NFTs show a reserve price and a countdown; some start their clock with the first bid. Auctions are paid in crypto only, because bids are placed and settled on the blockchain, so you need a wallet app to bid. Each new bid must be higher than the current highest bid, and the highest bidder when the countdown ends wins.",
  },
  {
    q: "Do the studios and stars benefit from my purchase?",
    a: "Yes. Every collection is made with the production house that owns the film, and 10% of every sale and every resale on the marketplace goes to the production house, for as long as the NFT is traded.",
  },
  {
    q: "What do the Common, Rare, Ultimate and Legendary tiers mean?",
    a: "Tiers describe how scarce an NFT is. Common NFTs come in editions of hundreds, Rare in tens, Ultimate in a handful, and Legendary NFTs are one of one. Higher tiers often carry exclusive rewards, listed on each NFT's page.",
  },
  {
    q: "Can I resell my NFT?",
    a: "Yes. From your profile you can put an NFT you own on sale at a fixed price or start an auction; other fans can buy it by card or in rupees. 10% of the sale goes to the production house as royalties.",
  },
  {
    q: "Can I get a refund?",
    a: "An NFT delivered to your wallet cannot be taken back, so sales are final, as set out in our Terms and Conditions. If a payment or a delivery went wrong, contact support and we will look into it straight away.",
  },
];

/** The first purchase, step by step (How it works). */
export const firstSteps: { title: string; text: string }[] = [
  {
    title: "Sign up with your email",
    text: "Confirm your email from the link we send you, and your account is ready.",
  },
  {
    title: "Choose a moment and pay in rupees",
    text: "Press Purchase on any NFT and pay by card or UPI. Nothing to install, no crypto needed.",
  },
  {
    title: "Confirm with your fingerprint",
    text: "Your phone's fingerprint, face or screen lock secures the wallet we make for you. Your NFT is in it within seconds.",
  },
];
