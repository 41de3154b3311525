-- A wallet order's purchase voucher is signed once, when the order is made, and kept with it: reading
-- the order returns the stored signature instead of signing again (issue 21). Orders made before this
-- column have none (their payment is no longer offered; they expire or are fulfilled as before).
ALTER TABLE orders ADD COLUMN voucher_signature text;
