/** The ten questions fans ask most, answered in line with how Diginoor works. */
export const faqs: { q: string; a: string }[] = [
  {
    q: "What exactly do I own when I buy a Diginoor NFT?",
    a: "You own a unique token on the blockchain that points to a specific, officially licensed piece of film art: a still, poster, song moment, prop scan or scene. Ownership is recorded on-chain and shown in your profile showcase. The studio keeps the copyright in the underlying film; you receive a personal licence to display and enjoy the art, and any extra rights (such as the copyright share of the one-of-one song) are stated on the NFT's page.",
  },
  {
    q: "How do I pay: card or crypto?",
    a: "Fixed-price NFTs can be paid by card (in US dollars) or with crypto from your own wallet. Prices are always shown in US dollars; when you pay in crypto, the amount is converted at checkout. Auctions are paid in crypto only, because bids are placed and settled on the blockchain.",
  },
  {
    q: "Which cryptocurrencies are accepted?",
    a: "Payments and bids are made on the Polygon network, using MATIC from a connected wallet. Our card partner can also convert from other popular coins, such as Ether, Bitcoin, Ripple and Dogecoin, during checkout.",
  },
  {
    q: "Do I need a crypto wallet?",
    a: "You need a wallet to receive your NFTs, because they are delivered to a wallet address that you control. You can connect a browser wallet such as MetaMask, scan a QR code with a mobile wallet, or create a wallet with your email or social login. The wallet page walks you through each option.",
  },
  {
    q: "How long does delivery take?",
    a: "After a successful payment we mint or transfer your NFT to your connected wallet. Transfers usually complete within 20 to 30 minutes, depending on how busy the network is. You'll see the transaction on the confirmation page and in your profile, and we'll email you when it is done.",
  },
  {
    q: "How do auctions work?",
    a: "Auction NFTs show a reserve price in US dollars and a countdown. Some auctions start their clock with the first bid. Each new bid must be higher than the current highest bid. When the countdown reaches zero, the highest bidder wins and the NFT is transferred to their wallet.",
  },
  {
    q: "Do the studios and stars benefit from my purchase?",
    a: "Yes. Every collection is made with the production house that owns the film, and 10% royalties go to the production house on every sale and every resale on the marketplace, for as long as the NFT is traded.",
  },
  {
    q: "What do the Common, Rare, Ultimate and Legendary tiers mean?",
    a: "Tiers describe how scarce an NFT is. Common NFTs come in editions of hundreds, Rare in tens, Ultimate in a handful, and Legendary NFTs are one of one. Higher tiers often carry exclusive rewards, listed on each NFT's page.",
  },
  {
    q: "Can I resell my NFT?",
    a: "Yes. From your profile you can put an NFT you own on sale at a fixed price or start an auction. The buyer pays the network fees, and 10% of the sale goes to the production house as royalties.",
  },
  {
    q: "Can I get a refund?",
    a: "Because NFTs are delivered to your wallet on the blockchain and cannot be taken back, all sales are final, as set out in our Terms and Conditions. If something went wrong with a payment or delivery, contact support and we will investigate straight away.",
  },
];

export const tutorials = [
  { title: "All about NFT wallets", minutes: "4 min" },
  { title: "Purchasing with card or crypto", minutes: "3 min" },
  { title: "Adding Polygon Mainnet to your browser wallet", minutes: "2 min" },
  { title: "Adding MATIC to the Polygon network to place a bid", minutes: "3 min" },
  { title: "Placing a bid", minutes: "2 min" },
] as const;
